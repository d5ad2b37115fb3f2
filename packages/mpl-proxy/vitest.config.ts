import { packageVitestConfig } from '../../vitest.shared.ts';

// The CLI and durability tests spawn the built `mpl` bin: turbo builds it first, and the
// global setup builds it when the tests run directly and dist/ is missing or stale.
export default packageVitestConfig(import.meta.dirname, {
  globalSetup: ['./vitest.global-setup.ts'],
});
