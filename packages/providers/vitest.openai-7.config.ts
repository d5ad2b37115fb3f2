import { join } from 'node:path';
import { mergeConfig } from 'vitest/config';
import packageConfig from './vitest.config.ts';

// The tests that drive the real `openai` client against the local wire-format servers, with
// `openai` (and its subpaths) resolved from the openai 7 prefix in MTPX_OPENAI_7 instead of
// the workspace's openai 6: the adapters' own imports as well as the tests'. Run by
// scripts/openai-7.sh under Node 22 (openai 7 needs it), which sets MTPX_OPENAI_7_REPORT to
// its JSON report in the root test-results/; the package's own report is left alone.
const prefix = process.env.MTPX_OPENAI_7;
if (prefix === undefined) {
  throw new Error('vitest.openai-7.config.ts needs MTPX_OPENAI_7 (run scripts/openai-7.sh)');
}
const report = process.env.MTPX_OPENAI_7_REPORT;

const config = mergeConfig(packageConfig, {
  resolve: {
    alias: [
      { find: /^openai(\/.*)?$/, replacement: `${join(prefix, 'node_modules', 'openai')}$1` },
    ],
  },
});

export default {
  ...config,
  test: {
    ...config.test,
    include: [
      'src/openai/**/*.test.ts',
      'src/openai-responses/**/*.test.ts',
      'src/create-provider.test.ts',
      'src/api-error-codes.test.ts',
      'src/strict-schemas/strict-schemas.test.ts',
      'src/testing/scripted-servers.test.ts',
    ],
    reporters: ['default', ...(report === undefined ? [] : [['json', { outputFile: report }]])],
    // The type-level tests are checked against openai 7 by scripts/openai-7-types.ts.
    typecheck: { enabled: false },
  },
};
