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

function isUnknownExtension(error: unknown): boolean {
  return (error as { code?: unknown })?.code === 'ERR_UNKNOWN_FILE_EXTENSION';
}

/**
 * Imports the module `mtpx-mcp` serves. A TypeScript module (`.ts`, `.mts`, `.cts`) that
 * Node cannot load by itself (Node 20; 22 without type stripping) goes through the
 * project's own `tsx` when it has one; without it, the error says what to do instead of
 * Node's bare `Unknown file extension ".ts"`.
 */
export async function importServerModule(
  modulePath: string,
  hooks: ModuleLoaderHooks = {},
): Promise<Record<string, unknown>> {
  const importUrl =
    hooks.importUrl ?? ((url: string) => import(url) as Promise<Record<string, unknown>>);
  const file = resolve(modulePath);
  try {
    return await importUrl(pathToFileURL(file).href);
  } catch (error) {
    if (!TYPESCRIPT.has(extname(file)) || !isUnknownExtension(error)) throw error;
    const tsx = (hooks.resolveTsx ?? resolveTsxFrom)(dirname(file));
    if (tsx === undefined)
      throw new McpAdapterError({
        code: 'adapter_error',
        message: `mtpx-mcp: Node ${process.versions.node} cannot load the TypeScript module ${modulePath} by itself. Install tsx in its project (npm install --save-dev tsx) and mtpx-mcp loads it through tsx, or compile it and serve the .js file (mtpx-mcp ${modulePath.replace(/\.([mc]?)ts$/, '.$1js')}).`,
        cause: error,
      });
    const api = (await importUrl(pathToFileURL(tsx).href)) as {
      tsImport: (specifier: string, parent: string) => Promise<Record<string, unknown>>;
    };
    return api.tsImport(pathToFileURL(file).href, import.meta.url);
  }
}
