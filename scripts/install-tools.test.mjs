// node --test scripts/*.test.mjs: the one installer of .tools/ (the npm registry must be reachable).
import assert from 'node:assert/strict';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { installTools } from './install-tools.mjs';

const tools = join(import.meta.dirname, '..', '.tools');

test('two installers of the same folder at once: both get the whole folder, no staging left', async () => {
  const name = `installer-test-${process.pid}`;
  const pins = ['is-number@7.0.0'];
  try {
    const folders = await Promise.all([installTools(name, pins), installTools(name, pins)]);
    assert.deepEqual(folders, [join(tools, name), join(tools, name)]);
    const manifest = JSON.parse(
      await readFile(join(tools, name, 'node_modules', 'is-number', 'package.json'), 'utf8'),
    );
    assert.equal(manifest.version, '7.0.0');
    assert.equal((await readFile(join(tools, name, 'pins'), 'utf8')).trim(), 'is-number@7.0.0');
    assert.deepEqual(
      (await readdir(tools)).filter((entry) => entry.startsWith(`${name}.installing-`)),
      [],
    );
    // Its pins unchanged: reused as it is.
    assert.equal(await installTools(name, pins), join(tools, name));
  } finally {
    await rm(join(tools, name), { recursive: true, force: true });
  }
});
