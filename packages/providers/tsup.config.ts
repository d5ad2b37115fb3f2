import { defineConfig } from 'tsup';
import { packageTsupEntry } from '../../tsup.shared.ts';

// One build with five entries: tsup splits the shared code into chunks, so importing
// `@mtpx/providers/openai` never loads `@anthropic-ai/sdk`, and the reverse.
export default defineConfig([
  packageTsupEntry(import.meta.dirname, {
    entry: {
      index: 'src/index.ts',
      openai: 'src/openai.ts',
      anthropic: 'src/anthropic.ts',
      testing: 'src/testing.ts',
      internal: 'src/internal.ts',
    },
    external: ['openai', '@anthropic-ai/sdk'],
  }),
]);
