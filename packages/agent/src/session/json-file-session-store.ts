import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { safeParseJson } from '@mtpx/protocol';
import { measureJson } from '@mtpx/protocol/internal';
import { AgentError } from '../agent-error';
import {
  checkSessionId,
  checkSessionOwner,
  checkSessionVersion,
  parseSession,
  type Session,
  type SessionAccess,
  type SessionStore,
} from './session';
import { SessionFileLocks } from './session-file-lock';
import {
  isMissing,
  nodeFileSystem,
  ownerPid,
  processAlive,
  type SessionFileSystem,
} from './session-file-system';

export type { SessionFileSystem } from './session-file-system';

/** Options of {@link JsonFileSessionStore}. */
export interface JsonFileSessionStoreOptions {
  /** Where the session files go (created when missing): one `<session>.json` per session. */
  directory: string;
  /** The file operations; default: Node's, with an fsync before each rename. */
  fileSystem?: SessionFileSystem;
}

/** Longest session id, in UTF-8 bytes (its file name must fit every file system). */
const maxIdBytes = 100;

/**
 * The file name of a session: the id itself when it is lower-case letters, digits, `_`
 * and `-`; otherwise `~` and the hex of its UTF-8 bytes. Never a path, never two ids on
 * one file, even on case-insensitive file systems.
 */
function fileNameOf(sessionId: string): string {
  const bytes = Buffer.from(sessionId, 'utf8');
  if (bytes.length > maxIdBytes) {
    throw new AgentError({
      code: 'invalid_option',
      message: `A session id may be at most ${maxIdBytes} bytes long (UTF-8), got ${bytes.length}.`,
    });
  }
  const name = /^[a-z0-9_-]+$/.test(sessionId) ? sessionId : `~${bytes.toString('hex')}`;
  return `${name}.json`;
}

function storeFailed(action: string, sessionId: string, cause: unknown): AgentError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new AgentError({
    code: 'session_store_failed',
    message: `Could not ${action} session "${sessionId}": ${reason}`,
    cause,
  });
}

/**
 * Sessions as JSON files, one per session, in a directory. A save takes a lock file beside
 * the session's file, checks the stored copy's owner and version (compare-and-swap, so a
 * late writer from another run or process gets `session_conflict` instead of replacing a
 * newer copy), writes a new file, flushes it, and renames it over the old one: a crash or
 * a failed write at any moment leaves the last saved version whole. Temporary files and
 * locks left by processes that died are removed on the next open.
 *
 * @example
 * ```ts source="./session.examples.ts#JsonFileSessionStore"
 * const sessionStore = new JsonFileSessionStore({ directory: '.sessions' });
 * const agent = createAgent({ provider, tools, sessionStore });
 * await agent.run('Remember: the meeting is at 3.', { sessionId: 'chat-1', userId: 'ada' });
 * ```
 */
export class JsonFileSessionStore implements SessionStore {
  /** The directory the files live in. */
  readonly directory: string;
  readonly #fileSystem: SessionFileSystem;
  readonly #locks: SessionFileLocks;
  #opening: Promise<void> | undefined;

  constructor(options: JsonFileSessionStoreOptions) {
    if (typeof options?.directory !== 'string' || options.directory === '') {
      throw new AgentError({
        code: 'invalid_option',
        message: 'JsonFileSessionStore needs a `directory`.',
      });
    }
    this.directory = options.directory;
    this.#fileSystem = options.fileSystem ?? nodeFileSystem;
    this.#locks = new SessionFileLocks(this.#fileSystem);
  }

  async get(sessionId: string, access?: SessionAccess): Promise<Session | undefined> {
    await this.#opened();
    const session = await this.#read(sessionId);
    if (session !== undefined) checkSessionOwner(session, access);
    return session;
  }

  /**
   * Saves with compare-and-swap on `version`, across processes: under a lock file beside
   * the session's file, the stored copy is read, checked ({@link checkSessionVersion}) and
   * replaced by a flushed new file renamed over it.
   */
  async save(session: Session): Promise<void> {
    checkSessionId(session?.session_id);
    const path = this.#pathOf(session.session_id);
    const bounded = measureJson(session, { maxDepth: 256 });
    if (!bounded.ok) {
      throw new AgentError({
        code: 'invalid_session',
        message: `Session "${session.session_id}" cannot be stored: ${bounded.message}.`,
      });
    }
    const stored = { ...session, version: (session.version ?? 0) + 1 };
    const text = `${JSON.stringify(stored, null, 2)}\n`;
    await this.#opened();
    const unlock = await this.#locks.take(path, (cause) =>
      storeFailed('lock', session.session_id, cause),
    );
    try {
      checkSessionVersion(await this.#read(session.session_id), session);
      const temporary = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
      try {
        await this.#fileSystem.writeFileDurably(temporary, text);
        await this.#fileSystem.rename(temporary, path);
      } catch (error) {
        await this.#fileSystem.remove(temporary).catch(() => {});
        throw storeFailed('save', session.session_id, error);
      }
    } finally {
      await unlock();
    }
  }

  /**
   * On first use: makes the directory, and removes the temporary files and the locks
   * that processes which no longer run left behind (a crash between write and rename, or
   * while holding a lock), and locks older than the stale limit.
   */
  #opened(): Promise<void> {
    this.#opening ??= (async () => {
      await this.#fileSystem.makeDirectory(this.directory);
      const names = (await this.#fileSystem.list?.(this.directory)) ?? [];
      for (const name of names) {
        if (name.endsWith('.json.lock')) {
          await this.#locks.clearIfStale(join(this.directory, name));
          continue;
        }
        if (!name.endsWith('.tmp')) continue;
        const pid = ownerPid(name);
        if (Number.isFinite(pid) && !processAlive(pid)) {
          await this.#fileSystem.remove(join(this.directory, name)).catch(() => {});
        }
      }
    })().catch((error: unknown) => {
      this.#opening = undefined;
      throw storeFailed('open the directory of', this.directory, error);
    });
    return this.#opening;
  }

  async delete(sessionId: string, access?: SessionAccess): Promise<boolean> {
    const session = await this.get(sessionId, access);
    if (session === undefined) return false;
    try {
      await this.#fileSystem.remove(this.#pathOf(sessionId));
    } catch (error) {
      throw storeFailed('delete', sessionId, error);
    }
    return true;
  }

  #pathOf(sessionId: string): string {
    checkSessionId(sessionId);
    return join(this.directory, fileNameOf(sessionId));
  }

  async #read(sessionId: string): Promise<Session | undefined> {
    const path = this.#pathOf(sessionId);
    let text: string;
    try {
      text = await this.#fileSystem.readFile(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw storeFailed('read', sessionId, error);
    }
    const parsed = safeParseJson(text);
    if (!parsed.ok) {
      throw new AgentError({
        code: 'invalid_session',
        message: `The file of session "${sessionId}" (${path}) is not valid JSON: ${parsed.error.message}`,
        cause: parsed.error,
      });
    }
    return parseSession(parsed.value, `The file of session "${sessionId}" (${path})`);
  }
}
