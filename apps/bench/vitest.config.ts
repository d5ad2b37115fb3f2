import { packageVitestConfig } from '../../vitest.shared.ts';

export default packageVitestConfig(import.meta.dirname, {
  testTimeout: 120_000,
  hookTimeout: 120_000,
});
