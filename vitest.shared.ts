import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultExclude, defineConfig, type ViteUserConfig } from 'vitest/config';

/** The Node.js major running the tests: each runtime CI tests writes a report of its own. */
const nodeMajor = process.versions.node.split('.')[0];

/**
 * `MTPX_TESTS=runtime`: only the tests whose result can depend on the Node.js runtime. CI
 * runs every test on its pipeline's Node and, on each other runtime it tests, all but
 * those: the type-level tests (tsc's), the pages rendered in chromium (`browser.test.ts`,
 * whose servers the HTTP tests cover on every runtime) and what a package lists as
 * `runOnce` (the bench, a contributor's tool, like the build).
 */
const runtimeTestsOnly = process.env.MTPX_TESTS === 'runtime';

/**
 * The share of a volume test's volume (the seeded fuzz's 10,000 responses, the file
 * toolkit's 1,000 races per case) that a run takes, as `MTPX_TEST_VOLUME` in the tests'
 * environment: all of it by default; a tenth with `MTPX_TESTS=runtime`, where the question
 * is whether the code behaves the same on another runtime (a thousand fuzzed responses and
 * a hundred races a case ask it), not how much of the input space holds (the full volume,
 * on the pipeline's Node, answers that).
 */
const testVolume = runtimeTestsOnly ? 0.1 : 1;

/** Test files that run once, on the pipeline's Node, in every package. */
const RUN_ONCE = ['src/**/browser.test.ts'];

/** Options of {@link packageVitestConfig} beyond vitest's own. */
export interface PackageTestOptions {
  /** More test files (globs, from the package's folder) that `MTPX_TESTS=runtime` leaves out. */
  runOnce?: string[];
}

/**
 * The vitest configuration every package and app shares: co-located tests, the
 * `__PACKAGE_VERSION__` constant that tsup also defines, and a JSON report per package
 * and Node.js major (`test-results/vitest-node<major>.json`) that `.ci/run` sums into its
 * `N passed, N failed` lines.
 */
export function packageVitestConfig(
  directory: string,
  overrides: ViteUserConfig['test'] = {},
  options: PackageTestOptions = {},
) {
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
    version?: string;
  };
  return defineConfig({
    define: { __PACKAGE_VERSION__: JSON.stringify(manifest.version ?? '0.0.0') },
    test: {
      include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
      exclude: [
        ...defaultExclude,
        ...(runtimeTestsOnly ? [...RUN_ONCE, ...(options.runOnce ?? [])] : []),
      ],
      reporters: [
        'default',
        ['json', { outputFile: join(directory, 'test-results', `vitest-node${nodeMajor}.json`) }],
      ],
      // The type-level tests are tsc's, the same on every runtime: run once (see above).
      typecheck: {
        enabled: !runtimeTestsOnly,
        include: ['src/**/*.test-d.ts'],
      },
      env: { MTPX_TEST_VOLUME: String(testVolume) },
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
