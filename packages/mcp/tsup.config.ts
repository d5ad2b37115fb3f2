import { defineConfig } from 'tsup';
import { packageTsupEntry } from '../../tsup.shared.ts';

// One build for the library and the `mtpx-mcp` bin (its `#!` line is kept by esbuild);
// declarations only for the library.
export default defineConfig([
  packageTsupEntry(import.meta.dirname, {
    entry: { index: 'src/index.ts', internal: 'src/internal.ts', bin: 'src/cli/bin.ts' },
    dts: { entry: { index: 'src/index.ts', internal: 'src/internal.ts' } },
    // The private request guard is bundled in; the published manifest never names it.
    noExternal: ['@mtpx/http-guard'],
  }),
]);
