import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { McpAdapterError } from '../errors';
import { importServerModule } from './module-loader';

const unknownExtension = () =>
  Promise.reject(
    Object.assign(new TypeError('Unknown file extension ".ts" for /x/tools.ts'), {
      code: 'ERR_UNKNOWN_FILE_EXTENSION',
    }),
  );

describe('importServerModule', () => {
  it('imports a module Node can load', async () => {
    const module = fileURLToPath(new URL('../test-support/one-tool-module.ts', import.meta.url));
    expect((await importServerModule(module)).name).toBe('one-tool');
  });

  it('says what to do with a .ts module when Node cannot load it and tsx is not installed', async () => {
    const error = await importServerModule('./tools.ts', {
      importUrl: unknownExtension,
      resolveTsx: () => undefined,
    }).catch((caught: unknown) => caught);
    expect(McpAdapterError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `mtpx-mcp: Node ${process.versions.node} cannot load the TypeScript module ./tools.ts by itself. Install tsx in its project (npm install --save-dev tsx) and mtpx-mcp loads it through tsx, or compile it and serve the .js file (mtpx-mcp ./tools.js).`,
    );
  });

  it('loads a .ts module through the project’s tsx whenever it has one, as on every Node', async () => {
    const imported: string[] = [];
    const exports = await importServerModule('./tools.ts', {
      importUrl: (url) => {
        imported.push(url);
        return Promise.resolve({
          tsImport: (specifier: string) => Promise.resolve({ tools: [], from: specifier }),
        });
      },
      resolveTsx: () => '/project/node_modules/tsx/dist/esm/api/index.mjs',
    });
    expect(imported).toEqual(['file:///project/node_modules/tsx/dist/esm/api/index.mjs']);
    expect(exports.from).toMatch(/^file:\/\/.*\/tools\.ts$/);
  });

  it('lets Node load a .ts module when the project has no tsx (type stripping)', async () => {
    const exports = await importServerModule('./tools.ts', {
      importUrl: (url) => Promise.resolve({ from: url }),
      resolveTsx: () => undefined,
    });
    expect(exports.from).toMatch(/^file:\/\/.*\/tools\.ts$/);
  });

  it('says what to do when type stripping cannot load a .ts module and tsx is not installed', async () => {
    const error = await importServerModule('./tools.ts', {
      importUrl: () =>
        Promise.reject(
          Object.assign(new Error("Cannot find module '/x/helpers' imported from /x/tools.ts"), {
            code: 'ERR_MODULE_NOT_FOUND',
          }),
        ),
      resolveTsx: () => undefined,
    }).catch((caught: unknown) => caught);
    expect(McpAdapterError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      `mtpx-mcp: Node ${process.versions.node} stripped the types of ./tools.ts but could not load it (Cannot find module '/x/helpers' imported from /x/tools.ts): Node's own loader needs the extension in every relative import and no TypeScript-only syntax. Install tsx in its project (npm install --save-dev tsx) and mtpx-mcp loads it through tsx, or compile it and serve the .js file (mtpx-mcp ./tools.js).`,
    );
  });

  it('lets any other failure through unchanged', async () => {
    const failure = new Error('boom');
    await expect(
      importServerModule('./tools.js', { importUrl: () => Promise.reject(failure) }),
    ).rejects.toBe(failure);
  });
});
