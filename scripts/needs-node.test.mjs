// node --test scripts/*.test.mjs: the root engines check in front of the release tools.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { satisfies } from './needs-node.mjs';

const range = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'))
  .engines.node;

test("the root's engines: 22.18+, 24.11+ and 26+, not 20 nor an older 22 or 24", () => {
  for (const version of ['22.18.0', '22.23.5', 'v24.11.0', '24.22.3', '26.12.1', '27.0.0']) {
    assert.equal(satisfies(version, range), true, version);
  }
  for (const version of ['20.20.2', '22.17.9', '23.11.0', '24.10.0', '25.9.0']) {
    assert.equal(satisfies(version, range), false, version);
  }
  assert.throws(() => satisfies('22.18.0', '~22.18.0'), /unsupported range "~22.18.0"/);
});

test('outside the range, it says what to do and exits 1', () => {
  const script = join(import.meta.dirname, 'needs-node.mjs');
  const result = spawnSync(process.execPath, [script, 'pnpm changeset'], { encoding: 'utf8' });
  if (satisfies(process.version, range)) {
    assert.equal(result.status, 0, result.stderr);
  } else {
    assert.equal(result.status, 1);
    assert.match(result.stderr, /^pnpm changeset needs Node\.js \^22\.18\.0/);
    assert.match(result.stderr, /pnpm test:node 26 pnpm changeset/);
  }
});
