// Issue 27: a tool whose policy asks for approval, served over MCP, takes its decision in
// an input round that spans separate HTTP requests — the request is not held open while a
// person decides — and the answer reaches the executor as a decision made outside the
// plan execution.
import { defineTool } from '@mtpx/executor';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import { connectLegacyClient, connectModernClient, firstText } from '../test-support/clients';
import { createMcpServer } from './create-mcp-server';

let ran = 0;
const wipe = defineTool({
  name: 'wipe',
  description: 'Wipes the cache.',
  input_schema: z.object({ scope: z.string() }),
  risk_level: 'destructive',
  execute: ({ scope }) => {
    ran++;
    return `wiped ${scope}`;
  },
});
const server = createMcpServer({ name: 'approvals', version: '1.0.0', tools: [wipe] });

let http: McpHttpServer;
afterEach(async () => {
  await http?.close();
});

/** The `tools/call` bodies a client posted, in order. */
function recordingFetch(bodies: Array<Record<string, unknown>>) {
  return async (input: string | URL, init?: RequestInit) => {
    if (init?.method === 'POST' && typeof init.body === 'string') {
      const body = JSON.parse(init.body) as Record<string, unknown>;
      if (body.method === 'tools/call') bodies.push(body);
    }
    return fetch(input, init);
  };
}

describe('approval over MCP', () => {
  it('2026-07-28: the call is answered input_required, and the decision arrives in a second HTTP request', async () => {
    http = await serveMcp(server, { port: 0 });
    const bodies: Array<Record<string, unknown>> = [];
    ran = 0;
    const client = await connectModernClient(
      http.url,
      { elicit: () => ({ action: 'accept', content: { approve: true } }) },
      { fetch: recordingFetch(bodies) },
    );
    const result = await client.callTool({ name: 'wipe', arguments: { scope: 'all' } });
    expect(firstText(result)).toBe('wiped all');
    expect(ran).toBe(1);
    // Two separate requests: the first ended with the question, the second carried the answer.
    expect(bodies).toHaveLength(2);
    const retry = bodies[1]?.params as Record<string, unknown>;
    expect(retry.inputResponses).toMatchObject({ mtpx_approval: { action: 'accept' } });
    expect(typeof retry.requestState).toBe('string');
    await client.close();
  });

  it('2025 era: the question is a server-to-client request; a refusal runs nothing', async () => {
    http = await serveMcp(server, { port: 0 });
    ran = 0;
    const client = await connectLegacyClient(http.url, {
      elicit: () => ({ action: 'accept', content: { approve: false } }),
    });
    const result = await client.callTool({ name: 'wipe', arguments: { scope: 'all' } });
    expect(result).toMatchObject({ isError: true });
    expect(firstText(result)).toBe('wipe was not run: the user did not approve the call.');
    expect(client.seen.map((request) => request.method)).toEqual(['elicitation/create']);
    expect(ran).toBe(0);
    await client.close();
  });
});
