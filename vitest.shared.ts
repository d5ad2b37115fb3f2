import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/** The Node.js major running the tests: each runtime CI tests writes a report of its own. */
const nodeMajor = process.versions.node.split('.')[0];

/**
 * The vitest configuration every package and app shares: co-located tests, the
 * `__PACKAGE_VERSION__` constant that tsup also defines, and a JSON report per package
 * and Node.js major (`test-results/vitest-node<major>.json`) that `.ci/run` sums into its
 * `N passed, N failed` lines.
 */
export function packageVitestConfig(directory: string, overrides: ViteUserConfig['test'] = {}) {
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return defineConfig({
    define: { __PACKAGE_VERSION__: JSON.stringify(manifest.version ?? '0.0.0') },
    test: {
      include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
      reporters: [
        'default',
        ['json', { outputFile: join(directory, 'test-results', `vitest-node${nodeMajor}.json`) }],
      ],
      // The type-level tests are tsc's, the same on every runtime: CI runs them once, with
      // the pipeline's Node, and sets MTPX_TYPE_TESTS=off for the other runtimes.
      typecheck: {
        enabled: process.env.MTPX_TYPE_TESTS !== 'off',
        include: ['src/**/*.test-d.ts'],
      },
      restoreMocks: true,
      // Test files share their worker's module graph instead of importing it again each
      // (about half of a package's test CPU was module loading). Nothing here mocks modules;
      // a test that changes process-wide state (listeners, env, timers) puts it back.
      isolate: false,
      // CI runs every package's tests at once on two cores: tests that spawn processes or
      // load servers need room. Nothing waits on these limits; they only catch hangs.
      testTimeout: 30_000,
      hookTimeout: 60_000,
      ...overrides,
    },
  });
}
