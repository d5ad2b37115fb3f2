import type { Dirent } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { defineTool } from '../define-tool';
import { ExecutorError, ToolExecutionError } from '../errors';
import { defineToolkit, type Toolkit } from '../toolkit';
import { FileRoot } from './file-root';

/** Options of {@link fileToolkit}. */
export interface FileToolkitOptions {
  /** The directory the tools work in; nothing outside it can be read, listed or written. */
  root: string;
  /** Largest file `read_file` returns, in bytes. Default 1 MiB. */
  maxReadBytes?: number;
  /** Most entries `list_files` returns. Default 1,000. */
  maxListEntries?: number;
  /** Most matches `search_in_files` returns. Default 100. */
  maxSearchResults?: number;
  /** Files larger than this are skipped by `search_in_files`, in bytes. Default 1 MiB. */
  maxSearchFileBytes?: number;
  /** Most text files one `search_in_files` call searches. Default 5,000. */
  maxSearchFiles?: number;
  /** Include `write_file`. Default true. */
  writable?: boolean;
}

/** One entry of `list_files`. */
interface FileEntry {
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

const byName = (left: Dirent, right: Dirent) =>
  left.name < right.name ? -1 : left.name > right.name ? 1 : 0;

function fileTools(options: FileToolkitOptions) {
  const root = new FileRoot(options.root);
  const maxReadBytes = options.maxReadBytes ?? 1024 * 1024;
  const maxListEntries = options.maxListEntries ?? 1000;
  const maxSearchResults = options.maxSearchResults ?? 100;
  const maxSearchFileBytes = options.maxSearchFileBytes ?? 1024 * 1024;
  const maxSearchFiles = options.maxSearchFiles ?? 5000;

  const directoryAt = async (path: string) => {
    const absolute = await root.resolve(path, 'existing');
    if (!(await stat(absolute)).isDirectory()) {
      throw new ToolExecutionError({
        code: 'not_a_directory',
        message: `"${path}" is not a directory.`,
      });
    }
    return absolute;
  };

  /** Walks a directory breadth first without following symbolic links. */
  async function* walk(start: string, recursive: boolean, signal: AbortSignal) {
    const queue = [start];
    for (let head = 0; head < queue.length; head++) {
      signal.throwIfAborted();
      const directory = queue[head] as string;
      const entries = (await readdir(directory, { withFileTypes: true })).sort(byName);
      for (const entry of entries) {
        const absolute = join(directory, entry.name);
        yield { entry, absolute };
        if (recursive && entry.isDirectory()) queue.push(absolute);
      }
    }
  }

  const tools = [
    defineTool({
      name: 'file.list_files',
      description:
        'List the files and directories at a path in the workspace (relative, "." for the top). Set recursive to include subdirectories.',
      input_schema: {
        type: 'object',
        properties: {
          path: {
            type: 'string',
            description: 'Directory relative to the workspace root.',
            default: '.',
          },
          recursive: { type: 'boolean', description: 'Include subdirectories.', default: false },
        },
        additionalProperties: false,
      },
      execute: async (
        { path = '.', recursive = false }: { path?: string; recursive?: boolean },
        { signal },
      ) => {
        const directory = await directoryAt(path);
        const entries: FileEntry[] = [];
        let truncated = false;
        for await (const { entry, absolute } of walk(directory, recursive, signal)) {
          if (entries.length >= maxListEntries) {
            truncated = true;
            break;
          }
          const item: FileEntry = { path: await root.display(absolute), type: entryType(entry) };
          if (item.type === 'file') item.size = (await stat(absolute)).size;
          entries.push(item);
        }
        return { path: await root.display(directory), entries, truncated };
      },
    }),
    defineTool({
      name: 'file.read_file',
      description: 'Read a UTF-8 text file in the workspace and return its content.',
      input_schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the workspace root.' },
        },
        required: ['path'],
        additionalProperties: false,
      },
      execute: async ({ path }: { path: string }, { signal }) => {
        const absolute = await root.resolve(path, 'existing');
        const info = await stat(absolute);
        if (!info.isFile()) {
          throw new ToolExecutionError({ code: 'not_a_file', message: `"${path}" is not a file.` });
        }
        if (info.size > maxReadBytes) {
          throw new ToolExecutionError({
            code: 'file_too_large',
            message: `"${path}" has ${info.size} bytes, more than the ${maxReadBytes} that can be read; search in it instead.`,
          });
        }
        return readFile(absolute, { encoding: 'utf8', signal });
      },
    }),
    defineTool({
      name: 'file.search_in_files',
      description:
        'Find lines containing a text in the files under a path of the workspace (plain text, not a regular expression).',
      input_schema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, description: 'The text to find.' },
          path: {
            type: 'string',
            description: 'Directory (or file) to search, relative to the root.',
            default: '.',
          },
          case_sensitive: { type: 'boolean', default: false },
        },
        required: ['query'],
        additionalProperties: false,
      },
      execute: async (
        {
          query,
          path = '.',
          case_sensitive = false,
        }: { query: string; path?: string; case_sensitive?: boolean },
        { signal },
      ) => {
        const start = await root.resolve(path, 'existing');
        const needle = case_sensitive ? query : query.toLowerCase();
        const matches: Array<{ path: string; line: number; text: string }> = [];
        let filesSearched = 0;
        let truncated = false;
        const searchFile = async (absolute: string) => {
          const info = await stat(absolute);
          if (info.size > maxSearchFileBytes) return;
          const content = await readFile(absolute, { encoding: 'utf8', signal });
          if (content.includes('\0')) return; // binary
          filesSearched++;
          const lines = content.split(/\r?\n/);
          for (let index = 0; index < lines.length; index++) {
            const line = lines[index] as string;
            if (!(case_sensitive ? line : line.toLowerCase()).includes(needle)) continue;
            if (matches.length >= maxSearchResults) {
              truncated = true;
              return;
            }
            const text = line.length > 200 ? `${line.slice(0, 200)}…` : line;
            matches.push({ path: await root.display(absolute), line: index + 1, text });
          }
        };
        if ((await stat(start)).isFile()) {
          await searchFile(start);
        } else {
          for await (const { entry, absolute } of walk(start, true, signal)) {
            if (truncated) break;
            if (!entry.isFile()) continue;
            if (filesSearched >= maxSearchFiles) {
              truncated = true;
              break;
            }
            await searchFile(absolute);
          }
        }
        return { query, matches, files_searched: filesSearched, truncated };
      },
    }),
  ];
  if (options.writable === false) return tools;
  return [
    ...tools,
    defineTool({
      name: 'file.write_file',
      description:
        'Write a UTF-8 text file in the workspace, replacing it (or appending with append: true). Missing directories are created.',
      risk_level: 'write',
      side_effects: 'Creates or changes a file in the workspace.',
      input_schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path relative to the workspace root.' },
          content: { type: 'string', description: 'The text to write.' },
          append: {
            type: 'boolean',
            description: 'Add to the end instead of replacing.',
            default: false,
          },
        },
        required: ['path', 'content'],
        additionalProperties: false,
      },
      execute: async (
        { path, content, append = false }: { path: string; content: string; append?: boolean },
        { signal },
      ) => {
        const absolute = await root.resolve(path, 'write');
        const existing = await stat(absolute).catch(() => undefined);
        if (existing !== undefined && !existing.isFile()) {
          throw new ToolExecutionError({
            code: 'not_a_file',
            message: `"${path}" exists and is not a file.`,
          });
        }
        await mkdir(dirname(absolute), { recursive: true });
        // Re-check the parent after creating it: it must still be inside the root.
        await root.resolve(path, 'write');
        if (append) await appendFile(absolute, content, { encoding: 'utf8' });
        else await writeFile(absolute, content, { encoding: 'utf8', signal });
        return {
          path: await root.display(absolute),
          bytes_written: Buffer.byteLength(content, 'utf8'),
        };
      },
    }),
  ];
}

/**
 * The `file` toolkit: `file.list_files`, `file.read_file`, `file.search_in_files` and
 * (unless `writable: false`) `file.write_file` (risk `write`), all confined to `root`:
 * absolute paths, `..` and symbolic links leading out of it are refused.
 *
 * @example
 * ```ts
 * const executor = createExecutor({ tools: [fileToolkit({ root: './workspace' })] });
 * ```
 */
export function fileToolkit(options: FileToolkitOptions): Toolkit {
  if (typeof options?.root !== 'string' || options.root === '') {
    throw new ExecutorError({
      code: 'invalid_option',
      message: 'fileToolkit needs a `root` directory.',
    });
  }
  return defineToolkit({
    name: 'file',
    description: 'Files in one workspace directory: list, read, search and write.',
    load: () => fileTools(options),
  });
}
