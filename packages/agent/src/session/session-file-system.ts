import { link, mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The file operations a `JsonFileSessionStore` uses (replace them to test failures). */
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
   * lock a save holds. Default: the text is written to a temporary file first and linked
   * into place, so no reader ever sees the lock without its text. A replacement may show
   * the file before its text: a lock that is empty or unreadable counts as held, and is
   * aged by {@link SessionFileSystem.modifiedAt}.
   */
  createExclusive?(path: string, text: string): Promise<void>;
  /** When the file was last written, in ms since the epoch (default: its mtime). */
  modifiedAt?(path: string): Promise<number>;
}

export function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

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

/** Node's file operations, with an fsync before each rename. */
export const nodeFileSystem: Required<SessionFileSystem> = {
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
    // Written beside it first (a `.tmp` the next open removes if this process dies), then
    // linked: `link` fails with EEXIST like `open('wx')`, and the lock appears whole.
    const draft = `${path}.${process.pid}.${Math.random().toString(16).slice(2, 10)}.tmp`;
    const handle = await open(draft, 'wx');
    try {
      await handle.writeFile(text, 'utf8');
    } finally {
      await handle.close();
    }
    try {
      await link(draft, path);
    } finally {
      await rm(draft, { force: true });
    }
  },
  modifiedAt: async (path) => (await stat(path)).mtimeMs,
  list: (path) =>
    readdir(path).catch((error: unknown) => {
      if (isMissing(error)) return [];
      throw error;
    }),
};

/** True while a process with this id runs (on this machine). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/** The id of the process that wrote a leftover `<file>.<pid>.<random>.tmp` or held a lock. */
export function ownerPid(name: string): number {
  const match = /\.(\d+)\.[0-9a-f]+\.(?:tmp|lock)$/.exec(name);
  return match === null ? Number.NaN : Number(match[1]);
}
