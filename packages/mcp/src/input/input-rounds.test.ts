import { scriptedProvider } from '@mtpx/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installInputHandlers } from '../client/input-handlers';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import {
  connectLegacyClient,
  connectModernClient,
  firstText,
  type ScriptedHandlers,
} from '../test-support/clients';
import { testServer } from '../test-support/server';

let http: McpHttpServer;
beforeAll(async () => {
  http = await serveMcp(testServer(), { port: 0 });
});
afterAll(async () => {
  await http.close();
});

interface AnyClient {
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
    ...rest: unknown[]
  ): Promise<unknown>;
  close(): Promise<void>;
  seen: Array<{ method: string; params: Record<string, unknown> }>;
}

const eras = [
  {
    era: '2026-07-28 (v2 client, input_required)',
    connect: (handlers: ScriptedHandlers) => connectModernClient(http.url, handlers),
    call: (
      client: AnyClient,
      name: string,
      args: Record<string, unknown>,
      onprogress?: (p: { progress: number; message?: string }) => void,
    ) => client.callTool({ name, arguments: args }, onprogress ? { onprogress } : undefined),
  },
  {
    era: '2025 (v1 client, server-to-client requests)',
    connect: (handlers: ScriptedHandlers) => connectLegacyClient(http.url, handlers),
    call: (
      client: AnyClient,
      name: string,
      args: Record<string, unknown>,
      onprogress?: (p: { progress: number; message?: string }) => void,
    ) =>
      client.callTool(
        { name, arguments: args },
        undefined,
        onprogress ? { onprogress } : undefined,
      ),
  },
] as const;

describe.each(eras)('rounds for a $era client', ({ connect, call }) => {
  async function run(
    handlers: ScriptedHandlers,
    name: string,
    args: Record<string, unknown> = {},
  ): Promise<{ result: unknown; client: AnyClient }> {
    const client = (await connect(handlers)) as unknown as AnyClient;
    try {
      return { result: await call(client, name, args), client };
    } finally {
      await client.close();
    }
  }

  it('asks a name, then greets', async () => {
    const { result, client } = await run(
      { elicit: () => ({ action: 'accept', content: { name: 'Grace' } }) },
      'greet',
    );
    expect(firstText(result)).toBe('Hello, Grace!');
    expect(client.seen).toEqual([
      {
        method: 'elicitation/create',
        params: expect.objectContaining({
          mode: 'form',
          message: 'What is your name?',
          requestedSchema: expect.objectContaining({ required: ['name'] }),
        }),
      },
    ]);
  });

  it('lets the hook see a decline and a cancel', async () => {
    const declined = await run({ elicit: () => ({ action: 'decline' }) }, 'greet');
    const cancelled = await run({ elicit: () => ({ action: 'cancel' }) }, 'greet');
    expect(firstText(declined.result)).toBe('No name, no greeting.');
    expect(firstText(cancelled.result)).toBe('Greeting cancelled.');
  });

  it('sends a URL elicitation and finishes once the user accepts', async () => {
    const { result, client } = await run({ elicit: () => ({ action: 'accept' }) }, 'sign_in');
    expect(firstText(result)).toBe('Signed in.');
    expect(client.seen[0]?.params).toMatchObject({
      mode: 'url',
      message: 'Sign in to continue',
      url: 'https://example.com/login',
    });
  });

  it('answers a sampling round with the scripted provider', async () => {
    const provider = scriptedProvider(
      [{ text: 'Autumn moonlight / a worm digs silently / into the chestnut.' }],
      { model: 'haiku-model' },
    );
    const withSampling = (await connect({ declare: ['sampling'] })) as unknown as AnyClient;
    await installInputHandlers(withSampling as never, { sample: provider });
    const result = (await call(withSampling, 'haiku', { topic: 'autumn' })) as {
      structuredContent?: unknown;
    };
    await withSampling.close();
    expect(result.structuredContent).toEqual({
      haiku: 'Autumn moonlight / a worm digs silently / into the chestnut.',
      model: 'haiku-model',
    });
    expect(provider.requests[0]?.messages).toEqual([
      { role: 'system', content: 'You write haiku.' },
      { role: 'user', content: 'A haiku about autumn' },
    ]);
  });

  it('asks for the roots', async () => {
    const { result } = await run(
      { roots: () => ({ roots: [{ uri: 'file:///work', name: 'work' }, { uri: 'file:///tmp' }] }) },
      'list_roots',
    );
    expect((result as { _meta?: unknown; content: unknown[] }).content[0]).toEqual({
      type: 'text',
      text: '["file:///work","file:///tmp"]',
    });
  });

  it('runs a three-round tool, carrying its state between rounds', async () => {
    const answers: Record<string, unknown> = {
      date: { action: 'accept', content: { date: '2026-12-24' } },
      confirm: { action: 'accept', content: { confirm: true } },
    };
    const { result, client } = await run(
      {
        elicit: (params) =>
          answers[
            Object.keys((params.requestedSchema as { properties: object }).properties)[0] as string
          ],
      },
      'book_table',
      { party: 2 },
    );
    expect((result as { structuredContent?: unknown }).structuredContent).toEqual({
      booked: true,
      party: 2,
      date: '2026-12-24',
    });
    expect(client.seen.map((request) => request.params.message)).toEqual([
      'Which date for 2?',
      'Book a table for 2 on 2026-12-24?',
    ]);
  });

  it('reports progress that rises across rounds, dropping values that do not', async () => {
    const client = (await connect({
      elicit: () => ({ action: 'accept', content: { ok: true } }),
    })) as unknown as AnyClient;
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await call(client, 'steps', {}, (update) => {
      // The v2 client adds its own round markers; keep what the tool reported.
      if (update.message?.startsWith('step')) progress.push(update);
    });
    await client.close();
    expect(firstText(result)).toBe('done in 3 rounds');
    expect(progress.map((update) => [update.progress, update.message])).toEqual([
      [1, 'step 1'],
      [2, 'step 2'],
      [3, 'step 3'],
    ]);
  });
});
