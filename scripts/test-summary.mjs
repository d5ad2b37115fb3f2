#!/usr/bin/env node
// Sums the vitest JSON reports of every package and app into `N passed, N failed` lines:
// one per Node.js runtime tested (`--runtimes 26,22,20`: the majors whose reports
// `test-results/vitest-node<major>.json` are read; by default the Node running this), one
// for the CI steps' own reports, and the total last. A package with a test script but no
// report for a runtime counts as one failure (its tests never ran there), unless that
// runtime is below the package's declared floor (scripts/tested-packages.mjs): then it is
// named as not tested there, and counts neither way. Each failed test
// is named with its runtime. `--extra-failures N` adds failed CI steps, so the last line is
// never green when CI is red. CI steps with their own tests leave a vitest-shaped report
// in the root test-results/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outsideEnginesMarker, testedPackages } from './tested-packages.mjs';

const root = join(import.meta.dirname, '..');
const extraIndex = process.argv.indexOf('--extra-failures');
const extraFailures = extraIndex === -1 ? 0 : Number(process.argv[extraIndex + 1] ?? 0);
const runtimesIndex = process.argv.indexOf('--runtimes');
const runtimes = (
  runtimesIndex === -1 ? process.versions.node.split('.')[0] : process.argv[runtimesIndex + 1]
)
  .split(',')
  .filter(Boolean);

/**
 * Each failed test (or test file that failed to load) of a report, with the first lines of
 * its error: CI's log is often cut to its end, so the names and causes are printed here.
 */
function failureLines(report, directory) {
  // vitest 4 reports a test's (or hook's) timeout as the stack of where the test was
  // declared, under the name it gave that stack; its message is not in the report.
  const vitestTimeout = 'Error: STACK_TRACE_ERROR';
  const timedOut = 'Timed out (vitest names a timeout STACK_TRACE_ERROR; the test is declared at:)';
  const lines = [];
  const firstLines = (message) =>
    String(message ?? '')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
      .replace(/\u001b\[[0-9;]*m/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(0, 3)
      .map(
        (line) => `    ${(line.trim() === vitestTimeout ? timedOut : line.trim()).slice(0, 200)}`,
      );
  for (const file of report.testResults ?? []) {
    const path = String(file.name ?? '').replace(`${directory}/`, '');
    const failures = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failures) {
      lines.push(`FAIL ${path} > ${test.fullName ?? test.title}`);
      lines.push(...firstLines(test.failureMessages?.[0]));
    }
    if (file.status === 'failed' && failures.length === 0) {
      lines.push(`FAIL ${path} (did not load or run)`);
      lines.push(...firstLines(file.message));
    }
  }
  return lines;
}

let passed = 0;
let failed = 0;
const runtimeLines = [];
for (const runtime of runtimes) {
  let runtimePassed = 0;
  let runtimeFailed = 0;
  for (const { path, directory } of testedPackages()) {
    const label = `node ${runtime} ${path}`;
    const reportPath = join(directory, 'test-results', `vitest-node${runtime}.json`);
    const marker = outsideEnginesMarker(directory, runtime);
    if (existsSync(marker)) {
      console.log(`${label}: not tested: ${readFileSync(marker, 'utf8').trim()}`);
      continue;
    }
    if (!existsSync(reportPath)) {
      console.log(`${label}: no test report (its tests did not run)`);
      runtimeFailed += 1;
      continue;
    }
    const report = JSON.parse(readFileSync(reportPath, 'utf8'));
    // A test file that fails to load has no assertions but still failed.
    const brokenFiles = (report.testResults ?? []).filter(
      (file) =>
        file.status === 'failed' &&
        !(file.assertionResults ?? []).some((assertion) => assertion.status === 'failed'),
    ).length;
    const packageFailed = (report.numFailedTests ?? 0) + brokenFiles;
    runtimePassed += report.numPassedTests ?? 0;
    runtimeFailed += packageFailed;
    console.log(`${label}: ${report.numPassedTests ?? 0} passed, ${packageFailed} failed`);
    for (const line of failureLines(report, directory)) {
      console.log(
        line.startsWith('FAIL ') ? `  FAIL [node ${runtime}] ${line.slice(5)}` : `  ${line}`,
      );
    }
  }
  runtimeLines.push(`node ${runtime}: ${runtimePassed} passed, ${runtimeFailed} failed`);
  passed += runtimePassed;
  failed += runtimeFailed;
}
// CI steps that are not vitest (e.g. .ci/mcp-conformance.sh) leave a report of the same
// shape in the root test-results/.
const stepReports = join(root, 'test-results');
let stepsPassed = 0;
let stepsFailed = 0;
if (existsSync(stepReports)) {
  for (const file of readdirSync(stepReports).sort()) {
    if (!file.endsWith('.json')) continue;
    const report = JSON.parse(readFileSync(join(stepReports, file), 'utf8'));
    stepsPassed += report.numPassedTests ?? 0;
    stepsFailed += report.numFailedTests ?? 0;
    console.log(
      `${file.replace(/\.json$/, '')}: ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed`,
    );
    for (const line of failureLines(report, root)) console.log(`  ${line}`);
  }
}
for (const line of runtimeLines) console.log(line);
if (stepsPassed + stepsFailed > 0) {
  console.log(`CI steps' own tests: ${stepsPassed} passed, ${stepsFailed} failed`);
}
passed += stepsPassed;
failed += stepsFailed + extraFailures;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
