import { defineConfig } from 'tsup';
import { packageTsupEntry } from '../../tsup.shared.ts';

export default defineConfig([
  packageTsupEntry(import.meta.dirname, {
    entry: {
      index: 'src/index.ts',
      reader: 'src/reader.ts',
      internal: 'src/internal.ts',
      cli: 'src/cli/cli.ts',
    },
    noExternal: ['@mtpx/http-guard'],
  }),
]);
