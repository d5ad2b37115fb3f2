// node --test scripts/*.test.mjs: the environment native addons compile in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileEnvironment } from './native-addons.mjs';

test('node-gyp compiles against the runtime it is given, whatever npm_config_nodedir says', () => {
  const saved = { ...process.env };
  try {
    // CI puts the pipeline's Node (26) in npm_config_nodedir; node-gyp lets that variable
    // override its --nodedir argument, in any case.
    process.env.npm_config_nodedir = '/ci/node-26';
    process.env.NPM_CONFIG_NODEDIR = '/ci/node-26';
    process.env.PATH = '/usr/bin';
    const env = compileEnvironment('/tools/node-22/bin/node', '/tools/node-22');
    const nodedirs = Object.entries(env).filter(
      ([key]) => key.toLowerCase() === 'npm_config_nodedir',
    );
    assert.deepEqual(nodedirs, [['npm_config_nodedir', '/tools/node-22']]);
    assert.equal(env.PATH, '/tools/node-22/bin:/usr/bin');
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
});
