import { defineConfig } from 'tsup';
import { packageTsupEntry } from '../../tsup.shared.ts';

// The run view has an entry of its own: browser bundles (the Inspector's web app) fold
// events with it without the Node parts of the main entry.
export default defineConfig([
  packageTsupEntry(import.meta.dirname, {
    entry: {
      index: 'src/index.ts',
      internal: 'src/internal.ts',
      'run-view/index': 'src/run-view/index.ts',
    },
  }),
]);
