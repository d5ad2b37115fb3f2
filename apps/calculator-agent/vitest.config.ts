import { packageVitestConfig } from '../../vitest.shared.ts';

// The smoke tests spawn the app (tsx) and wait for it to exit: a few at a time.
export default packageVitestConfig(import.meta.dirname, {
  testTimeout: 120_000,
  maxConcurrency: 3,
});
