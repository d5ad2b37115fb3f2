import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { safeParseJson } from '@mtpx/protocol';
import { AgentError } from './agent-error';
import {
  checkSessionId,
  checkSessionOwner,
  parseSession,
  type Session,
  type SessionAccess,
  type SessionStore,
} from './session';

/** The file operations a {@link JsonFileSessionStore} uses (replace them to test failures). */
export interface SessionFileSystem {
  /** The file's text; rejects with an error whose `code` is `ENOENT` when it does not exist. */
  readFile(path: string): Promise<string>;
  /** Writes a new file and flushes it to disk before resolving. */
  writeFileDurably(path: string, text: string): Promise<void>;
  /** Atomically replaces `to` with `from`. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file; resolves when there is none. */
  remove(path: string): Promise<void>;
  /** Creates a directory and its parents; resolves when it exists. */
  makeDirectory(path: string): Promise<void>;
}

/** Options of {@link JsonFileSessionStore}. */
export interface JsonFileSessionStoreOptions {
  /** Where the session files go (created when missing): one `<session>.json` per session. */
  directory: string;
  /** The file operations; default: Node's, with an fsync before each rename. */
  fileSystem?: SessionFileSystem;
}

const nodeFileSystem: SessionFileSystem = {
  readFile: (path) => readFile(path, 'utf8'),
  writeFileDurably: async (path, text) => {
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: async (from, to) => {
    await rename(from, to);
    await syncDirectory(dirname(to));
  },
  remove: (path) => rm(path, { force: true }),
  makeDirectory: async (path) => {
    await mkdir(path, { recursive: true });
  },
};

/** Flushes a directory entry (the rename) to disk, where the platform allows it. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a directory; the rename itself is still atomic there.
  }
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

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
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
 * Sessions as JSON files, one per session, in a directory. A save writes a new file,
 * flushes it, and renames it over the old one: a crash or a failed write at any moment
 * leaves the last saved version whole (a stray `*.tmp` file at worst, which is ignored).
 *
 * @example
 * ```ts
 * const sessionStore = new JsonFileSessionStore({ directory: '.sessions' });
 * const agent = createAgent({ provider, tools, sessionStore });
 * await agent.run('Remember: the meeting is at 3.', { sessionId: 'chat-1', userId: 'ada' });
 * ```
 */
export class JsonFileSessionStore implements SessionStore {
  /** The directory the files live in. */
  readonly directory: string;
  readonly #fileSystem: SessionFileSystem;

  constructor(options: JsonFileSessionStoreOptions) {
    if (typeof options?.directory !== 'string' || options.directory === '') {
      throw new AgentError({
        code: 'invalid_option',
        message: 'JsonFileSessionStore needs a `directory`.',
      });
    }
    this.directory = options.directory;
    this.#fileSystem = options.fileSystem ?? nodeFileSystem;
  }

  async get(sessionId: string, access?: SessionAccess): Promise<Session | undefined> {
    const session = await this.#read(sessionId);
    if (session !== undefined) checkSessionOwner(session, access);
    return session;
  }

  async save(session: Session): Promise<void> {
    checkSessionId(session?.session_id);
    const path = this.#pathOf(session.session_id);
    const temporary = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    const text = `${JSON.stringify(session, null, 2)}\n`;
    try {
      await this.#fileSystem.makeDirectory(this.directory);
      await this.#fileSystem.writeFileDurably(temporary, text);
      await this.#fileSystem.rename(temporary, path);
    } catch (error) {
      await this.#fileSystem.remove(temporary).catch(() => {});
      throw storeFailed('save', session.session_id, error);
    }
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
