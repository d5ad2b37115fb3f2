import { randomBytes } from 'node:crypto';
import { constants, type Dirent, existsSync, type Stats } from 'node:fs';
import {
  type FileHandle,
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  stat,
} from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { ToolExecutionError } from '../errors';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_DIRECTORY, O_NOFOLLOW } = constants;

/**
 * Linux names an open descriptor's directory `/proc/self/fd/N`: a path through it resolves
 * relative to that very directory (as `openat` does), whatever happens to the names on
 * the way to it meanwhile.
 */
const descriptorPaths = process.platform === 'linux' && existsSync('/proc/self/fd');

/** An open directory inside the root, and the path it was reached by (relative, `/`-separated). */
export interface OpenDirectory {
  handle: FileHandle;
  /** Its path relative to the root (`''` for the root). */
  shown: string;
}

function isCode(error: unknown, ...codes: string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && codes.includes(code);
}

/**
 * A directory file tools may not leave, used by descriptor. Every path is walked one
 * component at a time from an open descriptor of the root, each component opened with
 * `O_NOFOLLOW` relative to the directory before it; a symbolic link on the way is
 * followed only to an object whose descriptor is verified to lie inside the root (its real
 * path, and its device + inode against that path). Files are created exclusively
 * (`O_EXCL`) and replaced by renaming a new file over them, never written through a name
 * that could be swapped. What was opened is what is used: a component swapped for a link
 * between two steps is refused, not followed.
 */
export class ConfinedRoot {
  readonly #given: string;
  #identity: Promise<{ real: string; dev: number; ino: number }> | undefined;

  constructor(root: string) {
    this.#given = root;
  }

  /** The root's real path, with its device and inode (checked once). */
  identity(): Promise<{ real: string; dev: number; ino: number }> {
    this.#identity ??= (async () => {
      const real = await realpath(this.#given);
      const info = await stat(real);
      if (!info.isDirectory()) throw new Error(`${real} is not a directory`);
      return { real, dev: info.dev, ino: info.ino };
    })().catch((cause: unknown) => {
      this.#identity = undefined;
      throw new ToolExecutionError({
        code: 'root_unavailable',
        message: `The file tools' root directory is not available (${this.#given}).`,
        cause,
      });
    });
    return this.#identity;
  }

  /** Opens the root itself, verified to be the same directory (device + inode) as at first use. */
  async openRoot(): Promise<OpenDirectory> {
    const { real, dev, ino } = await this.identity();
    const handle = await open(real, O_RDONLY | O_DIRECTORY);
    const info = await handle.stat();
    if (info.dev !== dev || info.ino !== ino) {
      await handle.close();
      throw outside('.');
    }
    return { handle, shown: '' };
  }

  /** The path that names `name` inside the open directory `directory`. */
  async at(directory: OpenDirectory, name: string): Promise<string> {
    if (descriptorPaths) return `/proc/self/fd/${directory.handle.fd}/${name}`;
    return join((await this.identity()).real, directory.shown, name);
  }

  /**
   * Opens the directory at `components` (each a plain name), creating missing ones when
   * `create` is set. Closes nothing it returns; the caller closes the result.
   */
  async openDirectory(
    components: readonly string[],
    shown: string,
    create = false,
  ): Promise<OpenDirectory> {
    let directory = await this.openRoot();
    try {
      for (const component of components) {
        const next = await this.#openChild(
          directory,
          component,
          O_RDONLY | O_DIRECTORY,
          shown,
          create,
        );
        await directory.handle.close();
        directory = {
          handle: next,
          shown: directory.shown === '' ? component : `${directory.shown}/${component}`,
        };
      }
      return directory;
    } catch (error) {
      await directory.handle.close().catch(() => {});
      throw error;
    }
  }

  /**
   * Opens the entry `name` of `directory` with `flags`, verified to lie inside the root.
   * With `followLinks: false` a link is refused (`path_outside_root`) instead of followed.
   */
  async openEntry(
    directory: OpenDirectory,
    name: string,
    flags: number,
    shown: string,
    followLinks = true,
  ): Promise<FileHandle> {
    if (!followLinks) {
      return open(await this.at(directory, name), flags | O_NOFOLLOW).catch((error: unknown) => {
        throw mapOpenError(error, shown);
      });
    }
    return this.#openChild(directory, name, flags, shown, false);
  }

  async #openChild(
    directory: OpenDirectory,
    name: string,
    flags: number,
    shown: string,
    create: boolean,
  ): Promise<FileHandle> {
    const path = await this.at(directory, name);
    try {
      return await open(path, flags | O_NOFOLLOW);
    } catch (error) {
      if (isCode(error, 'ENOENT') && create) {
        await mkdir(path).catch((cause: unknown) => {
          if (!isCode(cause, 'EEXIST')) throw cause;
        });
        return this.#openChild(directory, name, flags, shown, false);
      }
      if (!isCode(error, 'ELOOP', 'ENOTDIR', 'EMLINK')) throw mapOpenError(error, shown);
    }
    // A symbolic link (or not a directory): follow it, then verify what was opened.
    const link = await lstat(path).catch((error: unknown) => {
      throw mapOpenError(error, shown);
    });
    if (!link.isSymbolicLink()) throw notADirectory(shown);
    const handle = await open(path, flags).catch((error: unknown) => {
      throw mapOpenError(error, shown);
    });
    try {
      await this.verify(handle, shown);
      return handle;
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
  }

  /**
   * Verifies an open descriptor: its real path lies inside the root, and that path names
   * this very object now (same device and inode). Returns its path relative to the root.
   */
  async verify(handle: FileHandle, shown: string): Promise<string> {
    const { real } = await this.identity();
    const opened = await handle.stat();
    const where = descriptorPaths
      ? await readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined)
      : undefined;
    const named = where ?? (await realpath(join(real, shown)).catch(() => undefined));
    if (named === undefined || !isInside(real, named)) throw outside(shown);
    const now = await stat(named).catch(() => undefined);
    if (now === undefined || !sameObject(now, opened)) throw outside(shown);
    return relative(real, named).split(sep).join('/');
  }

  /** The entries of an open directory, sorted by name, links not followed. */
  async entries(directory: OpenDirectory): Promise<Dirent[]> {
    const path = descriptorPaths
      ? `/proc/self/fd/${directory.handle.fd}`
      : join((await this.identity()).real, directory.shown);
    const entries = await readdir(path, { withFileTypes: true });
    return entries.sort((left, right) =>
      left.name < right.name ? -1 : left.name > right.name ? 1 : 0,
    );
  }

  /** The entry's own status (a link is not followed). */
  async statEntry(directory: OpenDirectory, name: string): Promise<Stats | undefined> {
    return lstat(await this.at(directory, name)).catch(() => undefined);
  }

  /**
   * Replaces (or creates) the file `name` in `directory` with `content`: written to a new
   * file made exclusively beside it, then renamed over it, so no existing name — a link
   * swapped in included — is ever written through.
   */
  async replaceFile(
    directory: OpenDirectory,
    name: string,
    content: string,
    shown: string,
  ): Promise<void> {
    const existing = await this.statEntry(directory, name);
    if (existing?.isDirectory()) throw notAFile(shown);
    const temporary = `.${name}.${randomBytes(6).toString('hex')}.tmp`;
    const temporaryPath = await this.at(directory, temporary);
    const handle = await open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
    try {
      await this.verify(handle, shown);
      await handle.writeFile(content, 'utf8');
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(temporaryPath, { force: true }).catch(() => {});
      throw error;
    }
    await handle.close();
    try {
      await rename(temporaryPath, await this.at(directory, name));
    } catch (error) {
      await rm(temporaryPath, { force: true }).catch(() => {});
      if (isCode(error, 'EISDIR', 'ENOTEMPTY', 'EEXIST')) throw notAFile(shown);
      throw error;
    }
  }

  /** Appends to the file `name` in `directory` (created exclusively when missing). */
  async appendFile(
    directory: OpenDirectory,
    name: string,
    content: string,
    shown: string,
  ): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await this.openEntry(directory, name, O_WRONLY | O_APPEND, shown);
    } catch (error) {
      if (!(ToolExecutionError.isInstance(error) && error.code === 'not_found')) throw error;
      handle = await open(
        await this.at(directory, name),
        O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW,
        0o644,
      );
    }
    try {
      await this.verify(handle, shown);
      if (!(await handle.stat()).isFile()) throw notAFile(shown);
      await handle.appendFile(content, 'utf8');
    } finally {
      await handle.close();
    }
  }
}

function sameObject(left: Stats, right: Stats): boolean {
  return left.dev === right.dev && left.ino === right.ino;
}

function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function mapOpenError(error: unknown, shown: string): unknown {
  if (isCode(error, 'ENOENT')) {
    return new ToolExecutionError({
      code: 'not_found',
      message: `"${shown}" does not exist in the workspace; list the files to see what is there.`,
      cause: error,
    });
  }
  if (isCode(error, 'ENOTDIR')) return notADirectory(shown);
  if (isCode(error, 'EISDIR')) return notAFile(shown);
  if (isCode(error, 'ELOOP')) return outside(shown);
  return error;
}

/** The error for a path that leads out of the root. */
export function outside(shown: string): ToolExecutionError {
  return new ToolExecutionError({
    code: 'path_outside_root',
    message: `"${shown}" leads outside the workspace root (through a symbolic link); only files inside it can be used.`,
  });
}

function notADirectory(shown: string): ToolExecutionError {
  return new ToolExecutionError({
    code: 'not_a_directory',
    message: `"${shown}" is not a directory.`,
  });
}

/** The error for a path that is not a regular file. */
export function notAFile(shown: string): ToolExecutionError {
  return new ToolExecutionError({
    code: 'not_a_file',
    message: `"${shown}" exists and is not a file.`,
  });
}
