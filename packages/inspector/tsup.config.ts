import { join } from 'node:path';
import { defineConfig } from 'tsup';
import { packageTsupEntry } from '../../tsup.shared.ts';

// Two builds: the Node entry points, and the web app bundled for the browser into
// dist/web (served by `mtpx-inspector serve`; no CDN, works offline). The Node build's
// clean leaves dist/web alone.
export default defineConfig([
  packageTsupEntry(import.meta.dirname, {
    entry: ['src/index.ts', 'src/internal.ts', 'src/cli.ts'],
    clean: ['!web/**'],
    noExternal: ['@mtpx/http-guard'],
  }),
  {
    entry: { app: 'src/web/main.ts' },
    outDir: 'dist/web',
    format: ['iife'],
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: true,
    dts: false,
    clean: true,
    outExtension: () => ({ js: '.js' }),
    // The page folds events with @mtpx/agent/run-view, which needs protocol's reference
    // helpers but none of its zod schemas: bundled from protocol's modules (side-effect
    // free), the schemas and zod drop out (34 KB instead of 490 KB).
    esbuildOptions(options) {
      options.alias = {
        '@mtpx/protocol/internal': join(import.meta.dirname, '../protocol/src/internal.ts'),
        '@mtpx/protocol': join(import.meta.dirname, '../protocol/src/index.ts'),
      };
    },
  },
]);
