import {
  AgentError,
  checkSessionOwner,
  checkSessionVersion,
  type Session,
  type SessionAccess,
  type SessionStore,
} from '@mtpx/agent';
import { SessionSchema } from '@mtpx/agent/internal';
import { safeParseJson } from '@mtpx/protocol';
import { type PostgresConnectionOptions, PostgresDatabase } from './postgres-connection';

interface SessionRow {
  user_id: string | null;
  version: number;
  data: string;
}

/**
 * Sessions in PostgreSQL (table `mtpx_sessions`), shared by every process that points
 * at the same database and schema. A save is one compare-and-swap statement: it writes
 * only when the stored version is the one the session was read at, so of two processes
 * saving the same session at once exactly one wins and the other gets `session_conflict`;
 * a session of another user is never overwritten (`session_access_denied`). The tables are
 * created on first use (or by `migratePostgres`).
 *
 * @example
 * ```ts source="./postgres.examples.ts#PostgresSessionStore"
 * const sessionStore = new PostgresSessionStore({ connectionString: 'postgres://app@db/app' });
 * const agent = createAgent({ provider, tools, sessionStore });
 * await agent.run('Remember: the meeting is at 3.', { sessionId: 'chat-1', userId: 'ada' });
 * ```
 */
export class PostgresSessionStore implements SessionStore {
  readonly #database: PostgresDatabase;
  readonly #table: string;

  constructor(options: PostgresConnectionOptions) {
    this.#database = new PostgresDatabase(options, 'PostgresSessionStore');
    this.#table = this.#database.table('mtpx_sessions');
  }

  async get(sessionId: string, access?: SessionAccess): Promise<Session | undefined> {
    checkId(sessionId);
    const session = await this.#read(sessionId);
    if (session !== undefined) checkSessionOwner(session, access);
    return session;
  }

  async save(session: Session): Promise<void> {
    checkId(session?.session_id);
    const expected = session.version ?? 0;
    const stored = { ...session, version: expected + 1 };
    const values = [session.session_id, session.user_id, expected + 1, JSON.stringify(stored)];
    let written: number;
    try {
      const result =
        expected === 0
          ? await this.#database.query(
              `INSERT INTO ${this.#table} (session_id, user_id, version, data) VALUES ($1, $2, $3, $4)
               ON CONFLICT (session_id) DO NOTHING`,
              values,
            )
          : await this.#database.query(
              `UPDATE ${this.#table} SET version = $3, data = $4, updated_at = now()
               WHERE session_id = $1 AND user_id IS NOT DISTINCT FROM $2 AND version = $3 - 1`,
              values,
            );
      written = result.rowCount ?? 0;
    } catch (error) {
      throw storeFailed('save', session.session_id, error);
    }
    if (written === 1) return;
    // Not written: say why, with the rule every store shares.
    checkSessionVersion(await this.#read(session.session_id), session);
    throw new AgentError({
      code: 'session_conflict',
      message: `Session "${session.session_id}" changed while it was being saved; read it again before saving.`,
    });
  }

  async delete(sessionId: string, access?: SessionAccess): Promise<boolean> {
    const session = await this.get(sessionId, access);
    if (session === undefined) return false;
    try {
      const result = await this.#database.query(
        `DELETE FROM ${this.#table} WHERE session_id = $1 AND user_id IS NOT DISTINCT FROM $2`,
        [sessionId, session.user_id],
      );
      return (result.rowCount ?? 0) > 0;
    } catch (error) {
      throw storeFailed('delete', sessionId, error);
    }
  }

  /** Ends the connection pool, when the store made it from a connection string. */
  async close(): Promise<void> {
    await this.#database.close();
  }

  async #read(sessionId: string): Promise<Session | undefined> {
    let row: SessionRow | undefined;
    try {
      const result = await this.#database.query(
        `SELECT user_id, version, data FROM ${this.#table} WHERE session_id = $1`,
        [sessionId],
      );
      row = result.rows[0] as SessionRow | undefined;
    } catch (error) {
      throw storeFailed('read', sessionId, error);
    }
    if (row === undefined) return undefined;
    const where = `The stored session "${sessionId}"`;
    const parsed = safeParseJson(row.data);
    if (!parsed.ok) {
      throw new AgentError({
        code: 'invalid_session',
        message: `${where} is not valid JSON: ${parsed.error.message}`,
        cause: parsed.error,
      });
    }
    const session = SessionSchema.safeParse(parsed.value);
    if (!session.success) {
      throw new AgentError({
        code: 'invalid_session',
        message: `${where} is not a valid session: ${session.error.issues[0]?.message ?? 'unknown problem'}.`,
        cause: session.error,
      });
    }
    // The columns are what the compare-and-swap checks; they win over the copy in `data`.
    return { ...session.data, user_id: row.user_id, version: row.version };
  }
}

function checkId(sessionId: unknown): asserts sessionId is string {
  if (typeof sessionId !== 'string' || sessionId === '') {
    throw new AgentError({
      code: 'invalid_option',
      message: `A session id must be a non-empty string, got ${JSON.stringify(sessionId)}.`,
    });
  }
}

function storeFailed(action: string, sessionId: string, cause: unknown): AgentError {
  if (AgentError.isInstance(cause)) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new AgentError({
    code: 'session_store_failed',
    message: `Could not ${action} session "${sessionId}" in PostgreSQL: ${reason}`,
    cause,
  });
}
