// node --test scripts/*.test.mjs: which packages `pnpm test` tests on each runtime.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testedPackages, testsOn } from './tested-packages.mjs';

const packages = testedPackages();
// Under packages/: what ships (published, or bundled into what is, like @mtpx/http-guard).
const shipped = packages.filter((pkg) => pkg.path.startsWith('packages/'));
const apps = packages.filter((pkg) => pkg.path.startsWith('apps/'));

test('every package under packages/ declares its own floor, Node 20, and is tested there', () => {
  assert.ok(shipped.length > 0);
  for (const pkg of shipped) {
    assert.equal(pkg.rangeFrom, 'its package.json', pkg.path);
    assert.equal(testsOn('20.20.2', pkg.range), true, `${pkg.path}: ${pkg.range}`);
    assert.equal(testsOn('26.12.1', pkg.range), true, `${pkg.path}: ${pkg.range}`);
  }
});

test("the private apps take the workspace root's floor: tested on 22.18+ and 26, not on 20", () => {
  assert.ok(apps.some((pkg) => pkg.path === 'apps/calculator-agent'));
  for (const pkg of apps) {
    assert.equal(pkg.manifest.private, true, pkg.path);
    assert.equal(pkg.rangeFrom, 'the workspace root', pkg.path);
    assert.equal(testsOn('20.20.2', pkg.range), false, pkg.path);
    assert.equal(testsOn('22.23.5', pkg.range), true, pkg.path);
    assert.equal(testsOn('26.12.1', pkg.range), true, pkg.path);
  }
});

test('a floor may name a major or a minor only', () => {
  assert.equal(testsOn('20.0.0', '>=20'), true);
  assert.equal(testsOn('v19.9.0', '>=20'), false);
  assert.equal(testsOn('20.18.3', '>=20.19'), false);
  assert.equal(testsOn('20.19.0', '>=20.19'), true);
});
