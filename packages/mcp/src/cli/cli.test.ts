import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connectLegacyClient, firstText } from '../test-support/clients';
import { type RunningCli, runCli } from './cli';
import { serverFromModuleExports } from './module-server';

const testModule = fileURLToPath(new URL('../test-support/stdio-module.ts', import.meta.url));

let running: RunningCli | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function io() {
  const lines: string[] = [];
  return { lines, io: { stderr: (line: string) => lines.push(line) } };
}

describe('mtpx-mcp', () => {
  it('serves the module over Streamable HTTP with --http', async () => {
    const { lines, io: output } = io();
    running = await runCli([testModule, '--http', '--port', '0'], output);
    const url = /at (http:\S+)/.exec(lines[0] ?? '')?.[1];
    expect(lines[0]).toMatch(
      /^mtpx-mcp: serving mtpx-test \(7 tools\) at http:\/\/127\.0\.0\.1:\d+\/mcp$/,
    );
    const client = await connectLegacyClient(new URL(url as string), {
      elicit: () => ({ action: 'accept', content: { name: 'Lin' } }),
    });
    expect(firstText(await client.callTool({ name: 'greet', arguments: {} }))).toBe('Hello, Lin!');
    await client.close();
  });

  it('counts one tool as "1 tool"', async () => {
    const { lines, io: output } = io();
    const module = fileURLToPath(new URL('../test-support/one-tool-module.ts', import.meta.url));
    running = await runCli([module, '--http', '--port', '0'], output, serverFromModuleExports);
    expect(lines[0]).toMatch(/^mtpx-mcp: serving one-tool \(1 tool\) at http:/);
  });

  it('prints its usage and version', async () => {
    const { lines, io: output } = io();
    expect(await runCli(['--help'], output)).toBeUndefined();
    expect(await runCli(['--version'], output)).toBeUndefined();
    expect(lines[0]).toMatch(/^Usage: mtpx-mcp <module>/);
    expect(lines[1]).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('explains what is wrong with its arguments or the module', async () => {
    const { io: output } = io();
    await expect(runCli([], output)).rejects.toThrow(/Missing <module>/);
    await expect(runCli([testModule, '--http', '--port', 'x'], output)).rejects.toThrow(
      /--port must be a port number/,
    );
    const empty = fileURLToPath(new URL('../version.ts', import.meta.url));
    await expect(runCli([empty], output)).rejects.toThrow(/exports no MCP server and no `tools`/);
  });
});
