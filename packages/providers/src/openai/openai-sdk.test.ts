import { readFileSync } from 'node:fs';
import { VERSION } from 'openai/version';
import { expect, it } from 'vitest';

// The tests that drive the `openai` client run twice: on the workspace's openai
// (devDependency), and on openai 7 under Node 22 when scripts/openai-7.sh points
// MTPX_OPENAI_7 at its prefix (vitest.openai-7.config.ts). This keeps the second run from
// passing on openai 6 by mistake.
const openai7 = process.env.MTPX_OPENAI_7 !== undefined;
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

it(`loads ${openai7 ? 'openai 7, under Node 22 or later' : 'the workspace’s openai'}`, () => {
  if (openai7) {
    expect(VERSION).toMatch(/^7\./);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(22);
  } else {
    expect(VERSION).toBe(manifest.devDependencies.openai);
  }
});
