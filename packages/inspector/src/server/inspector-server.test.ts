import { mkdtemp, rm } from 'node:fs/promises';
import { get, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { safeParseJson } from '@mtpx/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRunEvents } from '../__fixtures__/seed-run';
import { type InspectorServer, recordRuns, serveInspector } from '../index';

let dir: string;
let inspector: InspectorServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mtpx-inspector-server-'));
  const recorder = recordRuns({ dir });
  await seedRunEvents({ onEvent: recorder });
  await recorder.close();
  inspector = await serveInspector({ dataDir: dir, port: 0 });
});
afterAll(async () => {
  await inspector.close();
  await rm(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  type: string;
  body: string;
}

function call(
  path: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${inspector.url}${path}`,
      { method: options.method ?? 'GET', headers: options.headers ?? {} },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            type: String(response.headers['content-type']),
            body,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function json(answer: Answer): Record<string, unknown> {
  const parsed = safeParseJson(answer.body);
  if (!parsed.ok) throw new Error(`not JSON: ${answer.body}`);
  return parsed.value as Record<string, unknown>;
}

describe('mtpx-inspector serve: the JSON API', () => {
  it('GET /api/runs lists the recorded runs', async () => {
    const answer = await call('/api/runs');
    expect(answer.status).toBe(200);
    expect(json(answer)).toEqual({
      runs: [
        expect.objectContaining({
          runId: 'run_seed',
          status: 'finished',
          rounds: 2,
          calls: 6,
          errors: 0,
          totalTokens: 292,
          model: 'scripted',
        }),
      ],
    });
  });

  it('GET /api/runs/:runId gives the run, its view and its events', async () => {
    const body = json(await call('/api/runs/run_seed'));
    expect(body.runId).toBe('run_seed');
    expect((body.events as unknown[]).length).toBeGreaterThan(20);
    const view = body.view as {
      rounds: Array<{ calls: Array<{ id: string }> }>;
      finalText: string;
    };
    expect(view.finalText).toBe('31');
    expect(view.rounds[0]?.calls.map((c) => c.id)).toEqual([
      'call_1',
      'call_2',
      'call_3',
      'call_4',
      'call_5',
      'call_6',
    ]);
  });

  it('serves the web app from the package, for every page of it', async () => {
    for (const path of ['/', '/runs/run_seed', '/compare', '/provenance']) {
      const page = await call(path);
      expect(page.status).toBe(200);
      expect(page.type).toContain('text/html');
      expect(page.body).toContain('<script src="/assets/app.js"></script>');
    }
    const script = await call('/assets/app.js');
    expect(script.type).toContain('text/javascript');
    expect(script.body.length).toBeGreaterThan(1000);
    expect((await call('/assets/app.css')).type).toContain('text/css');
  });

  it.each([
    ['an unknown run', '/api/runs/nope', {}, 404, 'run_not_found'],
    ['an unknown API route', '/api/nothing', {}, 404, 'not_found'],
    ['a path that is not URL encoding', '/api/runs/%E0%A4%A', {}, 400, 'invalid_path'],
    [
      'another Host (DNS rebinding)',
      '/api/runs',
      { host: 'attacker.example:80' },
      403,
      'host_not_allowed',
    ],
    [
      'a cross-site Origin',
      '/api/runs',
      { origin: 'http://attacker.example' },
      403,
      'origin_not_allowed',
    ],
    ['an opaque Origin', '/api/runs', { origin: 'null' }, 403, 'origin_not_allowed'],
    ['a bad event offset', '/api/runs/run_seed/events?from=-1', {}, 400, 'invalid_query'],
    [
      'provenance without a proxy',
      '/api/provenance?planId=p',
      {},
      404,
      'provenance_not_configured',
    ],
  ] as const)('%s is a 4xx with the error shape', async (_name, path, headers, status, code) => {
    const answer = await call(path, { headers: { ...headers } });
    expect(answer.status).toBe(status);
    expect(json(answer)).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('only reads: POST is 405', async () => {
    const answer = await call('/api/runs', { method: 'POST' });
    expect(answer.status).toBe(405);
    expect(json(answer)).toMatchObject({ error: { code: 'method_not_allowed' } });
  });

  it('its own Origin is allowed, with the security headers', async () => {
    const answer = await call('/api/runs', {
      headers: { origin: inspector.url.replace('127.0.0.1', 'localhost') },
    });
    expect(answer.status).toBe(200);
  });
});

describe('mtpx-inspector serve: a live run', () => {
  it('streams a run in progress as server-sent events, then says it ended', async () => {
    const recorder = recordRuns({ dir });
    const base = { runId: 'run_live' };
    recorder({
      ...base,
      type: 'run-started',
      at: 0,
      input: 'live?',
      provider: 'p',
      model: 'm',
      streaming: true,
      eagerDispatch: true,
    });
    recorder({ ...base, type: 'round-started', at: 1, round: 1, messageCount: 1, tools: [] });
    await recorder.flush();

    const received: string[] = [];
    const waiters: Array<{ test: () => boolean; resolve: () => void }> = [];
    const wake = () => {
      for (const waiter of [...waiters])
        if (waiter.test()) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
    };
    const until = (test: () => boolean) =>
      new Promise<void>((resolve) => {
        waiters.push({ test, resolve });
        wake();
      });
    let ended = false;
    get(`${inspector.url}/api/runs/run_live/events`, (response) => {
      expect(response.headers['content-type']).toContain('text/event-stream');
      response.setEncoding('utf8');
      let buffer = '';
      response.on('data', (chunk: string) => {
        buffer += chunk;
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop() ?? '';
        for (const block of blocks) if (block.includes('event: ')) received.push(block);
        wake();
      });
      response.on('end', () => {
        ended = true;
        wake();
      });
    });
    await until(() => received.length >= 2);
    expect(received[0]).toContain('"type":"run-started"');
    expect(received[1]).toMatch(/^id: 2\n/);

    recorder({ ...base, type: 'text-delta', at: 2, round: 1, delta: 'yes' });
    recorder({
      ...base,
      type: 'run-finished',
      at: 3,
      output: { final_text: 'yes', stop_reason: 'final', usage: {} },
      durationMs: 3,
    });
    await recorder.close();
    await until(() => ended);
    expect(received.map((block) => /event: (\S+)/.exec(block)?.[1])).toEqual([
      'run-event',
      'run-event',
      'run-event',
      'run-event',
      'run-ended',
    ]);
  });
});
