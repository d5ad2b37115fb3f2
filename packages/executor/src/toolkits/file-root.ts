import { lstat, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep, win32 } from 'node:path';
import { ToolExecutionError } from '../errors';

/** How a path will be used: an existing entry to read, or a file that may not exist yet. */
export type PathUse = 'existing' | 'write';

/**
 * A directory that file tools may not leave. Paths are relative to it; absolute paths,
 * `..` segments and symbolic links that resolve outside it are refused. (Checks happen
 * just before each use; a process that swaps links inside the root meanwhile is outside
 * this guard's reach.)
 */
export class FileRoot {
  readonly #given: string;
  #real: Promise<string> | undefined;

  constructor(root: string) {
    this.#given = resolve(root);
  }

  /** The root's real path (symlinks resolved), checked once. */
  real(): Promise<string> {
    this.#real ??= realpath(this.#given).catch((cause: unknown) => {
      this.#real = undefined;
      throw new ToolExecutionError({
        code: 'root_unavailable',
        message: `The file tools' root directory is not available (${this.#given}).`,
        cause,
      });
    });
    return this.#real;
  }

  /** The absolute, real path of `path` inside the root, or a ToolExecutionError saying why not. */
  async resolve(path: unknown, use: PathUse): Promise<string> {
    const text = checkShape(path);
    const root = await this.real();
    const target = join(root, text);
    if (use === 'existing') {
      const real = await realpath(target).catch((cause: unknown) => {
        throw notFound(text, cause);
      });
      this.#assertInside(root, real, text);
      return real;
    }
    // A file to write: its nearest existing ancestor must be inside the root, and the file
    // itself, when it exists as a link, must point inside too.
    const existing = await lstat(target).catch(() => undefined);
    if (existing?.isSymbolicLink()) {
      const real = await realpath(target).catch((cause: unknown) => {
        throw notFound(text, cause);
      });
      this.#assertInside(root, real, text);
      return real;
    }
    let ancestor = target;
    for (;;) {
      const parent = resolve(ancestor, '..');
      const real = await realpath(parent).catch(() => undefined);
      if (real !== undefined) {
        this.#assertInside(root, real, text);
        break;
      }
      if (parent === ancestor) throw notFound(text, undefined);
      ancestor = parent;
    }
    return target;
  }

  /** A path relative to the root, with `/` separators (`.` for the root itself). */
  async display(absolute: string): Promise<string> {
    const shown = relative(await this.real(), absolute)
      .split(sep)
      .join('/');
    return shown === '' ? '.' : shown;
  }

  /** True when `real` lies inside the root. */
  async contains(real: string): Promise<boolean> {
    return isInside(await this.real(), real);
  }

  #assertInside(root: string, real: string, shown: string): void {
    if (!isInside(root, real)) {
      throw new ToolExecutionError({
        code: 'path_outside_root',
        message: `"${shown}" leads outside the workspace root (through a symbolic link); only files inside it can be used.`,
      });
    }
  }
}

function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function checkShape(path: unknown): string {
  if (typeof path !== 'string' || path === '') {
    throw invalidPath('A path must be a non-empty string relative to the workspace root.');
  }
  if (path.includes('\0')) throw invalidPath('A path must not contain NUL characters.');
  if (isAbsolute(path) || win32.isAbsolute(path) || path.startsWith('~')) {
    throw new ToolExecutionError({
      code: 'path_outside_root',
      message: `"${path}" is an absolute path; give a path relative to the workspace root (such as "notes.txt").`,
    });
  }
  if (path.split(/[\\/]+/).includes('..')) {
    throw new ToolExecutionError({
      code: 'path_outside_root',
      message: `"${path}" contains "..": paths may not step out of a directory; give a path relative to the workspace root.`,
    });
  }
  return path;
}

function invalidPath(message: string): ToolExecutionError {
  return new ToolExecutionError({ code: 'invalid_path', message });
}

function notFound(path: string, cause: unknown): ToolExecutionError {
  return new ToolExecutionError({
    code: 'not_found',
    message: `"${path}" does not exist in the workspace; list the files to see what is there.`,
    cause,
  });
}
