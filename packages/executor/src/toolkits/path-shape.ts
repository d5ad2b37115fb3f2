import { isAbsolute, win32 } from 'node:path';
import { ToolExecutionError } from '../errors';

/** Checks a path's shape: a non-empty relative string without `..` (internal). */
export function checkShape(path: unknown): string {
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
