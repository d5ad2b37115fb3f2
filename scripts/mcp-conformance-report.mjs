#!/usr/bin/env node
// Reads the logs .ci/mcp-conformance.sh collected and writes its CI report in the shape
// scripts/test-summary.mjs sums (`numPassedTests`, `numFailedTests`): one test per scored
// conformance scenario per requirement set, one per Inspector check. A scored scenario
// listed in packages/mcp/conformance/expected-failures.yml that fails counts as neither
// (it is reported as expected). Prints one summary line; exits 1 on any failure.
//   node scripts/mcp-conformance-report.mjs <work-dir> <report.json> <requirements...>
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [work, reportPath, ...requirementSets] = process.argv.slice(2);
const root = join(import.meta.dirname, '..');

/** Scenario names listed under `server:` in the baseline (comments and blank lines skipped). */
function expectedFailures() {
  const text = readFileSync(join(root, 'packages/mcp/conformance/expected-failures.yml'), 'utf8');
  return new Set(
    [...text.matchAll(/^\s*-\s*([A-Za-z0-9:_./-]+)\s*(?:#.*)?$/gm)].map(
      (match) => match[1].split(':')[0],
    ),
  );
}

const expected = expectedFailures();
const tests = [];
const parts = [];
for (const requirements of requirementSets) {
  const logPath = join(work, `conformance-${requirements}.log`);
  const log = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
  const listPath = join(work, `required-${requirements}.txt`);
  const list = existsSync(listPath) ? readFileSync(listPath, 'utf8') : '';
  // `conformance list --server` names the required server scenarios first, one `  - name` a line.
  const serverSection = list.split(/^Server scenarios/m)[1]?.split(/^\S/m)[0] ?? '';
  const required = [...serverSection.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
  const marks = new Map(
    [...log.matchAll(/^([✓✗]) ([A-Za-z0-9_./-]+):/gm)].map((match) => [match[2], match[1]]),
  );
  // With a baseline the runner marks a scenario whose SHOULD check only warned as a failure.
  const unexpected = new Set(
    [...(log.split(/Unexpected failures/)[1] ?? '').matchAll(/^\s+✗ (\S+)/gm)].map(
      (match) => match[1].split(':')[0],
    ),
  );
  let passed = 0;
  let failed = 0;
  let excused = 0;
  for (const name of required) {
    const ok = marks.get(name) === '✓' && !unexpected.has(name);
    const status = ok ? 'passed' : expected.has(name) ? 'expected' : 'failed';
    tests.push({ fullName: `${requirements} ${name}`, status });
    if (status === 'passed') passed += 1;
    else if (status === 'failed') failed += 1;
    else excused += 1;
  }
  if (passed + failed + excused === 0) {
    tests.push({ fullName: `${requirements} (the suite did not run)`, status: 'failed' });
    failed += 1;
  }
  parts.push(
    `${requirements}: ${passed}/${passed + failed + excused} scenarios${excused > 0 ? ` (${excused} expected failures)` : ''}`,
  );
}

const inspectorPath = join(work, 'inspector.txt');
const inspector = existsSync(inspectorPath)
  ? readFileSync(inspectorPath, 'utf8').trim().split('\n').filter(Boolean)
  : [];
for (const line of inspector) {
  const [verdict, name] = line.split(' ');
  tests.push({ fullName: `inspector ${name}`, status: verdict === 'ok' ? 'passed' : 'failed' });
}
const inspectorPassed = inspector.filter((line) => line.startsWith('ok ')).length;
parts.push(`inspector CLI: ${inspectorPassed}/${inspector.length} checks`);

const numPassedTests = tests.filter((test) => test.status === 'passed').length;
const numFailedTests = tests.filter((test) => test.status === 'failed').length;
writeFileSync(
  reportPath,
  `${JSON.stringify(
    {
      numPassedTests,
      numFailedTests,
      numPendingTests: tests.length - numPassedTests - numFailedTests,
      testResults: [{ name: 'mcp-conformance', assertionResults: tests }],
    },
    null,
    2,
  )}\n`,
);
console.log(`mcp-conformance: ${parts.join('; ')}`);
process.exit(numFailedTests === 0 && inspector.length > 0 ? 0 : 1);
