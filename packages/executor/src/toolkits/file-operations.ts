import { constants, type Dirent } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { ToolExecutionError } from '../errors';
import { ConfinedRoot, notAFile, type OpenDirectory, outside } from './confined-root';
import { checkShape } from './path-shape';

const { O_RDONLY, O_DIRECTORY, O_NONBLOCK } = constants;
// Reads never block on a FIFO swapped in for a file.
const readFlags = O_RDONLY | O_NONBLOCK;

/** One entry of `list_files`. */
export interface FileEntry {
  path: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size?: number;
}

const entryType = (entry: Dirent): FileEntry['type'] =>
  entry.isFile()
    ? 'file'
    : entry.isDirectory()
      ? 'directory'
      : entry.isSymbolicLink()
        ? 'symlink'
        : 'other';

/** A path given by the model, as plain components (`.` and empty ones dropped). */
function componentsOf(path: unknown): { components: string[]; shown: string } {
  const text = checkShape(path);
  const components = text.split(/[\\/]+/).filter((part) => part !== '' && part !== '.');
  return { components, shown: components.length === 0 ? '.' : components.join('/') };
}

const joined = (base: string, name: string) => (base === '' ? name : `${base}/${name}`);
const display = (relative: string) => (relative === '' ? '.' : relative);

/**
 * The file toolkit's operations, all by descriptor inside a {@link ConfinedRoot}: nothing
 * is read, listed or written through a name that a concurrent process could swap for a
 * link leading out of the root.
 */
export class FileOperations {
  readonly root: ConfinedRoot;

  constructor(root: string) {
    this.root = new ConfinedRoot(root);
  }

  /** Opens a directory given by the model, verified; returns it with its real relative path. */
  async #directory(path: unknown): Promise<{ directory: OpenDirectory; base: string }> {
    const { components, shown } = componentsOf(path);
    const directory = await this.root.openDirectory(components, shown);
    try {
      const base = await this.root.verify(directory.handle, shown);
      return { directory: { handle: directory.handle, shown: base }, base };
    } catch (error) {
      await directory.handle.close();
      throw error;
    }
  }

  /** Opens a file given by the model for reading, verified (links inside the root are followed). */
  async #file(path: unknown): Promise<{ handle: FileHandle; shown: string }> {
    const { components, shown } = componentsOf(path);
    const name = components.pop();
    if (name === undefined) throw notAFile(shown);
    const directory = await this.root.openDirectory(components, shown);
    let handle: FileHandle;
    try {
      handle = await this.root.openEntry(directory, name, readFlags, shown);
    } finally {
      await directory.handle.close();
    }
    try {
      const real = await this.root.verify(handle, shown);
      return { handle, shown: real };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Walks directories breadth first from `start`, never following a link. */
  async *walk(
    start: OpenDirectory,
    recursive: boolean,
    signal: AbortSignal,
  ): AsyncGenerator<{ entry: Dirent; directory: OpenDirectory; shown: string }> {
    const queue: OpenDirectory[] = [start];
    try {
      for (let head = 0; head < queue.length; head++) {
        signal.throwIfAborted();
        const directory = queue[head] as OpenDirectory;
        for (const entry of await this.root.entries(directory)) {
          const shown = joined(directory.shown, entry.name);
          yield { entry, directory, shown };
          if (!recursive || !entry.isDirectory()) continue;
          const child = await this.root
            .openEntry(directory, entry.name, O_RDONLY | O_DIRECTORY, shown, false)
            .catch(() => undefined); // swapped for a link meanwhile: not followed
          if (child !== undefined) queue.push({ handle: child, shown });
        }
      }
    } finally {
      for (const directory of queue.slice(1)) await directory.handle.close().catch(() => {});
    }
  }

  /** `list_files`. */
  async list(path: unknown, recursive: boolean, maxEntries: number, signal: AbortSignal) {
    const { directory, base } = await this.#directory(path);
    try {
      const entries: FileEntry[] = [];
      let truncated = false;
      for await (const { entry, directory: parent, shown } of this.walk(
        directory,
        recursive,
        signal,
      )) {
        if (entries.length >= maxEntries) {
          truncated = true;
          break;
        }
        const item: FileEntry = { path: shown, type: entryType(entry) };
        if (item.type === 'file') {
          const info = await this.root.statEntry(parent, entry.name);
          if (info !== undefined) item.size = info.size;
        }
        entries.push(item);
      }
      return { path: display(base), entries, truncated };
    } finally {
      await directory.handle.close();
    }
  }

  /** `read_file`. */
  async read(path: unknown, maxBytes: number, signal: AbortSignal): Promise<string> {
    const { handle } = await this.#file(path);
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        throw new ToolExecutionError({
          code: 'not_a_file',
          message: `"${String(path)}" is not a file.`,
        });
      }
      if (info.size > maxBytes) {
        throw new ToolExecutionError({
          code: 'file_too_large',
          message: `"${String(path)}" has ${info.size} bytes, more than the ${maxBytes} that can be read; search in it instead.`,
        });
      }
      return await handle.readFile({ encoding: 'utf8', signal });
    } finally {
      await handle.close();
    }
  }

  /**
   * Each text file at or under `path` (a file or a directory), opened by descriptor and
   * never through a link, with its relative path; the callback reads it.
   */
  async eachFile(
    path: unknown,
    signal: AbortSignal,
    visit: (handle: FileHandle, shown: string) => Promise<boolean>,
  ): Promise<void> {
    const { components, shown } = componentsOf(path);
    let start: { directory: OpenDirectory; base: string } | undefined;
    try {
      start = await this.#directory(path);
    } catch (error) {
      if (!(ToolExecutionError.isInstance(error) && error.code === 'not_a_directory')) throw error;
    }
    if (start === undefined) {
      if (components.length === 0) throw notAFile(shown);
      const file = await this.#file(path);
      try {
        await visit(file.handle, file.shown);
      } finally {
        await file.handle.close();
      }
      return;
    }
    try {
      for await (const { entry, directory, shown: entryShown } of this.walk(
        start.directory,
        true,
        signal,
      )) {
        if (!entry.isFile()) continue;
        const handle = await this.root
          .openEntry(directory, entry.name, readFlags, entryShown, false)
          .catch(() => undefined);
        if (handle === undefined) continue;
        try {
          if (!(await handle.stat()).isFile()) continue;
          if (!(await visit(handle, entryShown))) return;
        } finally {
          await handle.close();
        }
      }
    } finally {
      await start.directory.handle.close();
    }
  }

  /**
   * `write_file`: missing directories are made (each verified), the file is appended to or
   * replaced by rename. A link at the file's name is followed only to a file inside the root.
   */
  async write(
    path: unknown,
    content: string,
    append: boolean,
    signal: AbortSignal,
  ): Promise<string> {
    let { components, shown } = componentsOf(path);
    for (let attempt = 0; ; attempt++) {
      signal.throwIfAborted();
      const name = components[components.length - 1];
      if (name === undefined) throw notAFile(shown);
      const directory = await this.root.openDirectory(components.slice(0, -1), shown, true);
      try {
        const base = await this.root.verify(directory.handle, shown);
        const here: OpenDirectory = { handle: directory.handle, shown: base };
        const existing = await this.root.statEntry(here, name);
        if (existing?.isSymbolicLink()) {
          if (attempt > 0) throw outside(shown);
          // Write to where the link leads, when that is inside the root, by its real path.
          const target = await this.root.openEntry(here, name, readFlags, shown);
          const real = await this.root.verify(target, shown).finally(() => target.close());
          components = real.split('/');
          shown = real;
          continue;
        }
        if (existing !== undefined && !existing.isFile()) throw notAFile(shown);
        if (append) await this.root.appendFile(here, name, content, shown);
        else await this.root.replaceFile(here, name, content, shown);
        return joined(base, name);
      } finally {
        await directory.handle.close().catch(() => {});
      }
    }
  }
}
