import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
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
  /** The names in a directory (for cleaning up leftovers); `[]` when it does not exist. */
  list?(path: string): Promise<string[]>;
  /**
   * Creates a file only when none exists (rejecting with code `EEXIST` otherwise): the
   * lock a save holds. Default: Node's `open(path, 'wx')`.
   */
  createExclusive?(path: string, text: string): Promise<void>;
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
  createExclusive: async (path, text) => {
    const handle = await open(path, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
  },
  list: (path) =>
    readdir(path).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    }),
};

/** True while a process with this id runs (on this machine). */
function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** The id of the process that wrote a leftover `<file>.<pid>.<random>.tmp` or held a lock. */
function ownerPid(name: string): number {
  const match = /\.(\d+)\.[0-9a-f]+\.(?:tmp|lock)$/.exec(name);
  return match === null ? Number.NaN : Number(match[1]);
}

/** How long a save waits for another process's lock before failing. */
const lockWaitMs = 10_000;
/** A lock older than this is left over from a process that hung or died. */
const staleLockMs = 30_000;

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
    const unlock = await this.#lock(path, session.session_id);
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

  /** Takes the session's lock file (made exclusively), waiting for another holder. */
  async #lock(path: string, sessionId: string): Promise<() => Promise<void>> {
    const lock = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.lock`;
    const shared = `${path}.lock`;
    const startedAt = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const createExclusive = this.#fileSystem.createExclusive ?? nodeFileSystem.createExclusive;
        await createExclusive?.(shared, `${lock}\n${Date.now()}\n`);
        return () => this.#fileSystem.remove(shared).catch(() => {});
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code !== 'EEXIST') {
          throw storeFailed('lock', sessionId, error);
        }
      }
      if (await this.#staleLock(shared)) continue;
      if (Date.now() - startedAt > lockWaitMs) {
        throw storeFailed('lock', sessionId, new Error(`${shared} is held by another writer`));
      }
      await delay(Math.min(50, 2 + attempt * 2));
    }
  }

  /** Removes a lock whose holder died or hung, and says so. */
  async #staleLock(shared: string): Promise<boolean> {
    const text = await this.#fileSystem.readFile(shared).catch(() => undefined);
    if (text === undefined) return true; // released meanwhile
    const [holder = '', takenAt = ''] = text.split('\n');
    const pid = ownerPid(holder);
    const age = Date.now() - Number(takenAt);
    if ((Number.isFinite(pid) && !processAlive(pid)) || age > staleLockMs) {
      await this.#fileSystem.remove(shared).catch(() => {});
      return true;
    }
    return false;
  }

  /**
   * On first use: makes the directory, and removes the temporary files and locks that
   * processes which no longer run left behind (a crash between write and rename).
   */
  #opened(): Promise<void> {
    this.#opening ??= (async () => {
      await this.#fileSystem.makeDirectory(this.directory);
      const names = (await this.#fileSystem.list?.(this.directory)) ?? [];
      for (const name of names) {
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
