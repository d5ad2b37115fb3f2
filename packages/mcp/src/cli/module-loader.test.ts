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

  it('loads a .ts module through the project’s tsx when Node cannot', async () => {
    const imported: string[] = [];
    const exports = await importServerModule('./tools.ts', {
      importUrl: (url) => {
        imported.push(url);
        if (url.endsWith('/tools.ts')) return unknownExtension();
        return Promise.resolve({
          tsImport: (specifier: string) => Promise.resolve({ tools: [], from: specifier }),
        });
      },
      resolveTsx: () => '/project/node_modules/tsx/dist/esm/api/index.mjs',
    });
    expect(imported[1]).toBe('file:///project/node_modules/tsx/dist/esm/api/index.mjs');
    expect(exports.from).toMatch(/^file:\/\/.*\/tools\.ts$/);
  });

  it('lets any other failure through unchanged', async () => {
    const failure = new Error('boom');
    await expect(
      importServerModule('./tools.js', { importUrl: () => Promise.reject(failure) }),
    ).rejects.toBe(failure);
  });
});
