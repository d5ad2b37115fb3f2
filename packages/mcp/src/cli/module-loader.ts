import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { safeParseJson } from '@mtpx/protocol';
import { McpAdapterError } from '../errors';

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts']);

/** How `mtpx-mcp` loads a module: what the default importer and tsx's resolver do. */
export interface ModuleLoaderHooks {
  /** Imports a file URL (default: `import()`). */
  importUrl?: (url: string) => Promise<Record<string, unknown>>;
  /** Where `tsx/esm/api` resolves from `directory`, or `undefined` when it is not installed. */
  resolveTsx?: (directory: string) => string | undefined;
}

/** tsx's ESM API entry (its `import` export of `./esm/api`), as installed for `directory`. */
function resolveTsxFrom(directory: string): string | undefined {
  try {
    const manifestPath = createRequire(resolve(directory, 'package.json')).resolve(
      'tsx/package.json',
    );
    const manifest = safeParseJson(readFileSync(manifestPath, 'utf8'));
    if (!manifest.ok) return undefined;
    const entry = (manifest.value as { exports?: Record<string, unknown> }).exports?.['./esm/api'];
    const target = (entry as { import?: string | { default?: string } } | undefined)?.import;
    const file = typeof target === 'string' ? target : target?.default;
    return file === undefined ? undefined : resolve(dirname(manifestPath), file);
  } catch {
    return undefined;
  }
}

/** Node's own refusals of a TypeScript module that tsx would load. */
const NODE_TYPESCRIPT_REFUSALS = new Set([
  // Node 20, or 22 without type stripping: no TypeScript at all.
  'ERR_UNKNOWN_FILE_EXTENSION',
  // Type stripping (Node 22.18 and later): a relative import without its extension.
  'ERR_MODULE_NOT_FOUND',
  // Type stripping: syntax it does not erase (enums, parameter properties, namespaces).
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
]);

/**
 * Imports the module `mtpx-mcp` serves. A TypeScript module (`.ts`, `.mts`, `.cts`) goes
 * through the project's own `tsx` whenever it has one, on every Node: Node 22.18 and later
 * strip types by themselves, but do not read a project as tsx does (extensionless relative
 * imports, TypeScript-only syntax), so one module loads the same on Node 20 and on 26.
 * Without tsx, Node loads it; when Node cannot, the error says what to do instead of
 * Node's bare `Unknown file extension ".ts"` or `Cannot find module`.
 */
export async function importServerModule(
  modulePath: string,
  hooks: ModuleLoaderHooks = {},
): Promise<Record<string, unknown>> {
  const importUrl =
    hooks.importUrl ?? ((url: string) => import(url) as Promise<Record<string, unknown>>);
  const file = resolve(modulePath);
  const url = pathToFileURL(file).href;
  if (!TYPESCRIPT.has(extname(file))) return importUrl(url);
  const tsx = (hooks.resolveTsx ?? resolveTsxFrom)(dirname(file));
  if (tsx !== undefined) {
    const api = (await importUrl(pathToFileURL(tsx).href)) as {
      tsImport: (specifier: string, parent: string) => Promise<Record<string, unknown>>;
    };
    return api.tsImport(url, import.meta.url);
  }
  try {
    return await importUrl(url);
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    if (typeof code !== 'string' || !NODE_TYPESCRIPT_REFUSALS.has(code)) throw error;
    const compiled = `mtpx-mcp ${modulePath.replace(/\.([mc]?)ts$/, '.$1js')}`;
    throw new McpAdapterError({
      code: 'adapter_error',
      message:
        code === 'ERR_UNKNOWN_FILE_EXTENSION'
          ? `mtpx-mcp: Node ${process.versions.node} cannot load the TypeScript module ${modulePath} by itself. Install tsx in its project (npm install --save-dev tsx) and mtpx-mcp loads it through tsx, or compile it and serve the .js file (${compiled}).`
          : `mtpx-mcp: Node ${process.versions.node} stripped the types of ${modulePath} but could not load it (${(error as Error).message.split('\n')[0]}): Node's own loader needs the extension in every relative import and no TypeScript-only syntax. Install tsx in its project (npm install --save-dev tsx) and mtpx-mcp loads it through tsx, or compile it and serve the .js file (${compiled}).`,
      cause: error,
    });
  }
}
