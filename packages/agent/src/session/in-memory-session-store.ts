import { cloneJson } from '@mtpx/protocol/internal';
import {
  checkSessionId,
  checkSessionOwner,
  checkSessionVersion,
  type Session,
  type SessionAccess,
  type SessionStore,
} from './session';

/**
 * Sessions in memory, for one process (the agent's default). Sessions are copied in and
 * out (without recursion), so changing one you read never changes what is stored. A save
 * over a version other than the one read fails with `session_conflict`.
 *
 * @example
 * ```ts source="./session.examples.ts#InMemorySessionStore"
 * const agent = createAgent({ provider, tools, sessionStore: new InMemorySessionStore() });
 * await agent.run('My name is Ada.', { sessionId: 'chat-1', userId: 'ada' });
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Session>();

  async get(sessionId: string, access?: SessionAccess): Promise<Session | undefined> {
    checkSessionId(sessionId);
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return undefined;
    checkSessionOwner(session, access);
    return cloneJson(session);
  }

  /** Saves with compare-and-swap on `version` (see {@link checkSessionVersion}). */
  async save(session: Session): Promise<void> {
    checkSessionId(session?.session_id);
    checkSessionVersion(this.#sessions.get(session.session_id), session);
    this.#sessions.set(session.session_id, {
      ...cloneJson(session),
      version: (session.version ?? 0) + 1,
    });
  }

  async delete(sessionId: string, access?: SessionAccess): Promise<boolean> {
    checkSessionId(sessionId);
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return false;
    checkSessionOwner(session, access);
    return this.#sessions.delete(sessionId);
  }
}
