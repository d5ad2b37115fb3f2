import { packageVitestConfig } from '../../vitest.shared.ts';

// The smoke test runs the whole bench (a contributor's tool): once, on CI's pipeline Node.
export default packageVitestConfig(
  import.meta.dirname,
  { testTimeout: 120_000, hookTimeout: 120_000 },
  { runOnce: ['src/smoke.test.ts'] },
);
