import { defineTool, ToolRegistry } from '@mtpx/executor';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineMcpPrompt } from '../definitions/mcp-prompt';
import { serverFromModuleExports } from './module-server';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes',
  input_schema: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe('serverFromModuleExports (what mtpx-mcp serves from `tools`)', () => {
  it('builds a server from `tools` and the optional exports', async () => {
    const server = serverFromModuleExports({
      name: 'echoes',
      version: '3.1.0',
      tools: [echo],
      prompts: [defineMcpPrompt({ name: 'hi', get: () => [{ role: 'user', content: 'hi' }] })],
      stateKey: 'k'.repeat(32),
    });
    expect(server).toMatchObject({ name: 'echoes', version: '3.1.0', toolNames: ['echo'] });
    const sdkServer = server?.createSdkServer('modern');
    expect(sdkServer?.getCapabilities()).toMatchObject({ tools: {}, prompts: {} });
  });

  it('accepts a ToolRegistry and defaults the name and version', () => {
    const server = serverFromModuleExports({ tools: new ToolRegistry([echo]) });
    expect(server).toMatchObject({ name: 'mtpx-mcp', version: '0.0.0', toolNames: ['echo'] });
  });

  it('gives undefined without tools', () => {
    expect(serverFromModuleExports({ default: 42 })).toBeUndefined();
  });
});
