import { packageVitestConfig } from '../../vitest.shared.ts';

// The server, CLI and browser tests use the built web app and bin: turbo builds the
// package first, and the global setup builds it when the tests run directly and dist/
// is missing or stale.
export default packageVitestConfig(import.meta.dirname, {
  globalSetup: ['./vitest.global-setup.ts'],
});
