import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installTools, node22Binary } from '../../../../scripts/install-tools.mjs';

/**
 * What row 9's AI SDK 7 line runs on: AI SDK 7 and a Node 22 binary (AI SDK 7 needs Node ≥
 * 22; the bench runs on the floor, Node 20, as well), pinned, installed into
 * `.tools/bench-ai-sdk-7` and `.tools/node-22` by `scripts/install-tools.mjs` the first time
 * the row runs — outside the workspace, as the MCP conformance step keeps its tools.
 */
export const AI_SDK_7_PINS = [
  'node22',
  'ai@7.0.173',
  '@ai-sdk/openai-compatible@3.0.92',
  'zod@4.6.7',
] as const;

let installed: Promise<string> | undefined;

/** The folder AI SDK 7 is installed in, installing it on first use. */
export function aiSdk7Directory(): Promise<string> {
  installed ??= installTools('bench-ai-sdk-7', [...AI_SDK_7_PINS]);
  return installed;
}

/** The Node 22 binary row 9's AI SDK 7 line runs on, installing it on first use. */
export async function node22(): Promise<string> {
  await aiSdk7Directory();
  return node22Binary();
}

/** The ES module entry of a package installed there. */
export async function importInstalled(name: string): Promise<Record<string, unknown>> {
  const directory = join(await aiSdk7Directory(), 'node_modules', name);
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
    exports?: { '.'?: { import?: string } };
  };
  const entry = manifest.exports?.['.']?.import ?? './dist/index.js';
  return (await import(pathToFileURL(join(directory, entry)).href)) as Record<string, unknown>;
}
