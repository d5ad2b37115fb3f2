import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vitest/config';
import { packageVitestConfig } from '../../vitest.shared.ts';

// The examples import the package by its name; resolve it to the source, as tsconfig does.
export default mergeConfig(packageVitestConfig(import.meta.dirname), {
  resolve: {
    alias: [
      {
        find: /^@mtpx\/providers$/,
        replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)),
      },
    ],
  },
});
