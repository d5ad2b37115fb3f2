import { defineConfig } from 'tsup';
import { packageTsupEntry } from '../../tsup.shared.ts';

// One build with both entry points, so the toolkits share the core's chunks (one copy of
// `defineTool` and the error classes) instead of bundling their own.
export default defineConfig([
  packageTsupEntry(import.meta.dirname, {
    entry: {
      index: 'src/index.ts',
      internal: 'src/internal.ts',
      'toolkits/index': 'src/toolkits/index.ts',
    },
  }),
]);
