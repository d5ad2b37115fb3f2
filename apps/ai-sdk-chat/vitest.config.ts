import { packageVitestConfig } from '../../vitest.shared.ts';

// The browser test builds the page and drives Chromium: room for a busy machine.
export default packageVitestConfig(import.meta.dirname, {
  testTimeout: 120_000,
  hookTimeout: 180_000,
});
