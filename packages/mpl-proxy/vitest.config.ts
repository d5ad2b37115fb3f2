import { packageVitestConfig } from '../../vitest.shared.ts';

// The CLI and durability tests spawn the built `mpl` bin, so the package is built first.
export default packageVitestConfig(import.meta.dirname, {
  globalSetup: ['./vitest.global-setup.ts'],
});
