import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MtpxUIMessage } from '@mtpx/ai-sdk';
import { DefaultChatTransport, getToolName, isToolUIPart, readUIMessageStream } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, MAX_BODY_BYTES, serveChat } from './chat-server';
import { OFFLINE_QUESTION, offlineModels } from './models';

let server: ChatServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = await mkdtemp(join(tmpdir(), 'ai-sdk-chat-static-'));
  await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>chat</title>');
  server = await serveChat({
    models: offlineModels({ chunkDelayMs: 0 }),
    config: { label: 'offline', question: OFFLINE_QUESTION },
    staticDir,
  });
});

afterAll(async () => {
  await server?.close();
  await rm(staticDir, { recursive: true, force: true });
});

const userMessage = (id: string, text: string): MtpxUIMessage => ({
  id,
  role: 'user',
  parts: [{ type: 'text', text }],
});

/** Sends a chat as useChat does (the AI SDK's own transport) and reads the answer back. */
async function ask(chatId: string, messages: MtpxUIMessage[]): Promise<MtpxUIMessage | undefined> {
  const transport = new DefaultChatTransport<MtpxUIMessage>({ api: `${server.url}/api/chat` });
  const stream = await transport.sendMessages({
    trigger: 'submit-message',
    chatId,
    messageId: undefined,
    messages,
    abortSignal: undefined,
  });
  let last: MtpxUIMessage | undefined;
  for await (const message of readUIMessageStream<MtpxUIMessage>({ stream })) last = message;
  return last;
}

describe('POST /api/chat', () => {
  it('answers with the UI message stream of an MTPX run: ten tool calls with inputs and outputs, then the answer', async () => {
    const answer = await ask('chat-1', [userMessage('m1', OFFLINE_QUESTION)]);
    const tools = (answer?.parts ?? []).filter(isToolUIPart);
    expect(tools.map((part) => [getToolName(part), part.state])).toEqual([
      ['getInventory', 'output-available'],
      ['getDemand', 'output-available'],
      ['get_weather', 'output-available'],
      ['getWeatherInformation', 'output-available'],
      ['getLocalTime', 'output-available'],
      ['cityAttractions', 'output-available'],
      ['currentLocation', 'output-available'],
      ['search_files', 'output-available'],
      ['saveNote', 'output-available'],
      ['send_email', 'output-available'],
    ]);
    const note = tools.find((part) => getToolName(part) === 'saveNote');
    // the $ref shown as what it points at
    expect(note?.input).toEqual({ note: 'document1.pdf - Contains "quarterly report" on page 3' });
    expect(note?.state === 'output-available' && note.output).toMatchObject({
      success: true,
      savedNote: 'document1.pdf - Contains "quarterly report" on page 3',
    });
    const text = answer?.parts.filter((part) => part.type === 'text').map((part) => part.text);
    expect(text?.join('')).toContain('P-100 has 42 units available');
    expect(answer?.parts.filter((part) => part.type === 'step-start')).toHaveLength(2);
    const edge = answer?.parts.find((part) => part.type === 'data-mtpx-edge');
    expect(edge?.data).toMatchObject({
      from: 'call_search_1',
      to: 'call_note_1',
      path: '/results/0',
    });
  });

  it('goes on with the same chat: the agent keeps the conversation in its session', async () => {
    const first = await ask('chat-2', [userMessage('m1', 'first')]);
    const second = await ask('chat-2', [
      userMessage('m1', 'first'),
      ...(first === undefined ? [] : [first]),
      userMessage('m3', 'again'),
    ]);
    const ids = (second?.parts ?? []).filter(isToolUIPart).map((part) => part.toolCallId);
    expect(ids).toContain('call_search_2');
    expect(second?.parts.some((part) => part.type === 'text')).toBe(true);
  });
});

/** A raw request, so tests can send what browsers and fetch would not. */
function raw(
  options: { method?: string; path?: string; headers?: Record<string, string> },
  body?: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers,
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('the server refuses what it does not take, with 4xx and { error: { code } }', () => {
  const json = { 'content-type': 'application/json' };
  it.each([
    ['a foreign Host', { headers: { host: 'evil.example' } }, undefined, 403, 'host_not_allowed'],
    [
      'a foreign Origin',
      { headers: { origin: 'https://evil.example' } },
      undefined,
      403,
      'origin_not_allowed',
    ],
    [
      'a body that is not JSON by its type',
      { method: 'POST', path: '/api/chat', headers: { 'content-type': 'text/plain' } },
      'hi',
      415,
      'unsupported_media_type',
    ],
    [
      'a body that is not JSON',
      { method: 'POST', path: '/api/chat', headers: json },
      '{"id":',
      400,
      'invalid_json',
    ],
    [
      'a request without messages',
      { method: 'POST', path: '/api/chat', headers: json },
      '{"id":"c","messages":[]}',
      400,
      'invalid_request',
    ],
    [
      'a body over the limit',
      { method: 'POST', path: '/api/chat', headers: json },
      `{"id":"${'x'.repeat(MAX_BODY_BYTES)}"}`,
      413,
      'body_too_large',
    ],
    ['GET on the chat route', { path: '/api/chat' }, undefined, 405, 'method_not_allowed'],
    ['a page that does not exist', { path: '/nope' }, undefined, 404, 'not_found'],
    [
      'a method it does not answer',
      { method: 'DELETE', path: '/' },
      undefined,
      405,
      'method_not_allowed',
    ],
  ])('%s', async (_name, options, body, status, code) => {
    const response = await raw(options, body);
    expect(response.status).toBe(status);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code } });
  });

  it('serves the page and its config to a same-origin browser', async () => {
    const page = await raw({ headers: { origin: server.url } });
    expect(page.status).toBe(200);
    const config = await raw({ path: '/api/config' });
    expect(JSON.parse(config.body)).toEqual({ label: 'offline', question: OFFLINE_QUESTION });
  });
});
