import { ExecutorError } from '../errors';
import { defineTool } from '../tools/define-tool';
import { defineToolkit, type Toolkit } from '../tools/toolkit';
import { FileOperations } from './file-operations';

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

function fileTools(options: FileToolkitOptions) {
  const files = new FileOperations(options.root);
  const maxReadBytes = options.maxReadBytes ?? 1024 * 1024;
  const maxListEntries = options.maxListEntries ?? 1000;
  const maxSearchResults = options.maxSearchResults ?? 100;
  const maxSearchFileBytes = options.maxSearchFileBytes ?? 1024 * 1024;
  const maxSearchFiles = options.maxSearchFiles ?? 5000;

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
        return files.list(path, recursive, maxListEntries, signal);
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
        return files.read(path, maxReadBytes, signal);
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
        const needle = case_sensitive ? query : query.toLowerCase();
        const matches: Array<{ path: string; line: number; text: string }> = [];
        let filesSearched = 0;
        let truncated = false;
        await files.eachFile(path, signal, async (handle, shown) => {
          if (filesSearched >= maxSearchFiles) {
            truncated = true;
            return false;
          }
          if ((await handle.stat()).size > maxSearchFileBytes) return true;
          const content = await handle.readFile({ encoding: 'utf8', signal });
          if (content.includes('\0')) return true; // binary
          filesSearched++;
          const lines = content.split(/\r?\n/);
          for (let index = 0; index < lines.length; index++) {
            const line = lines[index] as string;
            if (!(case_sensitive ? line : line.toLowerCase()).includes(needle)) continue;
            if (matches.length >= maxSearchResults) {
              truncated = true;
              return false;
            }
            const text = line.length > 200 ? `${line.slice(0, 200)}…` : line;
            matches.push({ path: shown, line: index + 1, text });
          }
          return true;
        });
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
        const written = await files.write(path, content, append, signal);
        return {
          path: written,
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
 * ```ts source="./toolkits.examples.ts#fileToolkit"
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
