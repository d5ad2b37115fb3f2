import { packageVitestConfig } from '../../vitest.shared.ts';

// src/model/ai-sdk-7.test.ts runs only under Node 22 with AI SDK 7 installed outside the
// workspace: scripts/ai-sdk-7.sh sets MTPX_AI_SDK_7 (the prefix) and MTPX_AI_SDK_7_REPORT
// (its JSON report, in the root test-results/); the package's own run leaves it out.
const aiSdk7 = process.env.MTPX_AI_SDK_7;
const aiSdk7Report = process.env.MTPX_AI_SDK_7_REPORT;

export default packageVitestConfig(import.meta.dirname, {
  exclude: ['**/node_modules/**', ...(aiSdk7 === undefined ? ['src/model/ai-sdk-7.test.ts'] : [])],
  ...(aiSdk7Report === undefined
    ? {}
    : {
        include: ['src/model/ai-sdk-7.test.ts'],
        reporters: ['default', ['json', { outputFile: aiSdk7Report }]],
        typecheck: { enabled: false },
      }),
});
