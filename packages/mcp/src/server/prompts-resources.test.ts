import { ResourceNotFoundError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineMcpPrompt } from '../definitions/mcp-prompt';
import { defineMcpResource } from '../definitions/mcp-resource';
import { McpAdapterError } from '../errors';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import { formElicitation } from '../input/input-requests';
import { complete, inputRequired } from '../input/input-round';
import {
  connectLegacyClient,
  connectModernClient,
  type ScriptedHandlers,
} from '../test-support/clients';
import { createMcpServer } from './create-mcp-server';

const review = defineMcpPrompt({
  name: 'review',
  description: 'Asks which language, then builds the prompt.',
  arguments: [{ name: 'file', required: true }],
  inputRound: (args, context) => {
    const answer = context.accepted('language');
    if (answer === undefined) {
      return inputRequired({
        language: formElicitation('Which language?', {
          type: 'object',
          properties: { language: { type: 'string', enum: ['ts', 'rust'] } },
          required: ['language'],
        }),
      });
    }
    return complete({
      description: 'A code review',
      messages: [{ role: 'user', content: `Review ${args.file} as ${String(answer.language)}.` }],
    });
  },
});

const hello = defineMcpPrompt({
  name: 'hello',
  get: () => [{ role: 'assistant', content: { type: 'text', text: 'Hi!' } }],
});

const broken = defineMcpPrompt({
  name: 'broken',
  get: () => {
    throw new Error('no template');
  },
});

const secret = defineMcpResource({
  uri: 'vault://secret',
  name: 'secret',
  mimeType: 'text/plain',
  inputRound: (_args, context) => {
    const code = context.accepted('code');
    if (code?.code !== '1234') {
      return inputRequired({
        code: formElicitation('Passcode?', {
          type: 'object',
          properties: { code: { type: 'string' } },
          required: ['code'],
        }),
      });
    }
    return complete('the treasure is under the oak');
  },
});

const readme = defineMcpResource({
  uri: 'docs://readme',
  name: 'readme',
  read: () => [{ text: '# Readme', mimeType: 'text/markdown' }, { blob: 'AAEC' }],
});

const server = createMcpServer({
  name: 'prompts-resources',
  version: '1.0.0',
  tools: [],
  prompts: [review, hello, broken],
  resources: [secret, readme],
});

let http: McpHttpServer;
beforeAll(async () => {
  http = await serveMcp(server, { port: 0 });
});
afterAll(async () => {
  await http.close();
});

const user: ScriptedHandlers = {
  elicit: (params) =>
    String(params.message) === 'Which language?'
      ? { action: 'accept', content: { language: 'ts' } }
      : { action: 'accept', content: { code: '1234' } },
};

describe.each([
  ['2026-07-28 (v2 client)', () => connectModernClient(http.url, user)],
  ['2025 (v1 client)', () => connectLegacyClient(http.url, user)],
] as const)('prompts and resources for a %s', (_era, connect) => {
  it('lists them', async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    const { resources } = await client.listResources();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['review', 'hello', 'broken']);
    expect(prompts[0]).toMatchObject({ arguments: [{ name: 'file', required: true }] });
    expect(resources).toEqual([
      { uri: 'vault://secret', name: 'secret', mimeType: 'text/plain' },
      { uri: 'docs://readme', name: 'readme' },
    ]);
    await client.close();
  });

  it('runs a prompt round hook that asks for input', async () => {
    const client = await connect();
    const result = await client.getPrompt({ name: 'review', arguments: { file: 'a.ts' } });
    expect(result).toMatchObject({
      description: 'A code review',
      messages: [{ role: 'user', content: { type: 'text', text: 'Review a.ts as ts.' } }],
    });
    expect((await client.getPrompt({ name: 'hello' })).messages).toEqual([
      { role: 'assistant', content: { type: 'text', text: 'Hi!' } },
    ]);
    await client.close();
  });

  it('runs a resource round hook that asks for input, and a plain read', async () => {
    const client = await connect();
    const secretContents = await client.readResource({ uri: 'vault://secret' });
    expect(secretContents.contents).toEqual([
      { uri: 'vault://secret', mimeType: 'text/plain', text: 'the treasure is under the oak' },
    ]);
    const readmeContents = await client.readResource({ uri: 'docs://readme' });
    expect(readmeContents.contents).toEqual([
      { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Readme' },
      { uri: 'docs://readme', blob: 'AAEC' },
    ]);
    await client.close();
  });

  it('answers unknown and failing prompts with JSON-RPC errors', async () => {
    const client = await connect();
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
    // SEP-2164: `data` is exactly `{ uri }`, so clients recognise resource-not-found.
    const notFound = await client.readResource({ uri: 'docs://nope' }).catch((error) => error);
    expect(notFound).toMatchObject({ code: -32602, data: { uri: 'docs://nope' } });
    expect(Object.keys(notFound.data)).toEqual(['uri']);
    await expect(client.getPrompt({ name: 'broken' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('no template'),
    });
    await client.close();
  });
});

describe('an unknown resource (SEP-2164)', () => {
  it('regression: the v2 client recognises it as ResourceNotFoundError (data.uri was missing)', async () => {
    const client = await connectModernClient(http.url, user);
    const error = await client.readResource({ uri: 'docs://missing' }).catch((cause) => cause);
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect((error as ResourceNotFoundError).uri).toBe('docs://missing');
    await client.close();
  });
});

describe('definitions', () => {
  it('need a function', () => {
    expect(() => defineMcpPrompt({ name: 'empty' })).toThrow(McpAdapterError);
    expect(() => defineMcpResource({ uri: 'x://y', name: 'y' })).toThrow(
      /read\(uri\) or an inputRound/,
    );
  });
});
