import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type ServeProcess, startServe } from '../__fixtures__/spawn-cli';

/** One request on a connection of its own (node:cluster hands connections out in turn). */
function fresh(
  url: string,
  options: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

function call(url: string, planId: string, thought: string) {
  return fresh(`${url}/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-MPL-SType': 'ai.agent.Reasoning.v1' },
    body: JSON.stringify({
      method: 'agent.reason',
      payload: { reasoningId: randomUUID(), planId, thought, conclusion: 'Go on' },
    }),
  });
}

/** The accepted calls each worker counted, read from `/metrics` until both are seen. */
async function callsPerWorker(url: string, total: number): Promise<number[]> {
  const seen = new Set<number>();
  for (let attempt = 0; attempt < 40; attempt++) {
    const { text } = await fresh(`${url}/metrics`);
    seen.add(Number(/^mpl_provenance_entries_total (\d+)$/m.exec(text)?.[1] ?? 0));
    for (const count of seen)
      if (count > 0 && seen.has(total - count)) return [count, total - count];
  }
  return [...seen];
}

/** The worker processes of a `mpl serve --workers N`. */
function workerPids(serve: ServeProcess): number[] {
  const output = execFileSync('pgrep', ['-P', String(serve.child.pid)], { encoding: 'utf8' });
  return output.split('\n').filter(Boolean).map(Number);
}

/** Resolves once the process has written a line matching `pattern` to stderr. */
function stderrLine(serve: ServeProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    let errors = '';
    const listener = (chunk: Buffer) => {
      errors += chunk;
      const match = pattern.exec(errors);
      if (match) {
        serve.child.stderr?.off('data', listener);
        resolve(match[0]);
      }
    };
    serve.child.stderr?.on('data', listener);
  });
}

/** A `GET /messages` stream, read once its `ready` event has come. */
async function subscribe(url: string) {
  const stream = await fetch(`${url}/messages`);
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let events = '';
  const until = async (done: () => boolean) => {
    while (!done()) {
      const { value, done: ended } = await reader.read();
      if (ended) throw new Error(`the stream ended: ${events}`);
      events += decoder.decode(value, { stream: true });
    }
  };
  await until(() => events.includes('event: ready'));
  const seqs = () => [...events.matchAll(/"seq":(\d+)/g)].map((match) => Number(match[1]));
  return {
    /** Resolves with the `seq`s of the messages seen, once there are `count`. */
    async seqs(count: number) {
      await until(() => seqs().length >= count);
      return seqs().sort((a, b) => a - b);
    },
    cancel: () => reader.cancel(),
  };
}

async function stop(serve: ServeProcess) {
  serve.child.kill('SIGTERM');
  expect(await serve.exited).toMatchObject({ code: 0 });
}

async function verifiedChain(url: string, planId: string) {
  const { status, text } = await fresh(`${url}/provenance/verify?planId=${planId}`);
  expect(status).toBe(200);
  return JSON.parse(text) as { valid: boolean; length: number; problems: unknown[] };
}

describe('mpl serve --workers 2', () => {
  it('answers /call from both workers into one verifying chain, and a /messages subscriber sees the calls every worker answered', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mpl-cluster-'));
    const serve = await startServe([
      '--data',
      dataDir,
      '--workers',
      '2',
      '--synchronous',
      'normal',
    ]);
    try {
      expect(workerPids(serve)).toHaveLength(2);
      const planId = randomUUID();
      // The subscriber's stream is answered by one worker; its `ready` comes once every
      // worker relays.
      const subscriber = await subscribe(serve.url);

      const calls = 8;
      const answers = await Promise.all(
        Array.from({ length: calls }, (_unused, index) => call(serve.url, planId, `Step ${index}`)),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(calls).fill(200));
      const [first, second] = await callsPerWorker(serve.url, calls);
      expect(first).toBeGreaterThan(0);
      expect(second).toBeGreaterThan(0);
      expect((first ?? 0) + (second ?? 0)).toBe(calls);

      // The subscriber sees all eight, whichever worker answered them.
      expect(await subscriber.seqs(calls)).toEqual(
        Array.from({ length: calls }, (_unused, index) => index + 1),
      );
      await subscriber.cancel();

      expect(await verifiedChain(serve.url, planId)).toMatchObject({
        valid: true,
        length: calls,
        problems: [],
      });
    } finally {
      await stop(serve);
    }
  }, 60_000);

  it('restarts a worker killed with kill -9, and keeps answering and relaying /messages', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mpl-cluster-'));
    const serve = await startServe(['--data', dataDir, '--workers', '2']);
    try {
      const planId = randomUUID();
      for (let index = 0; index < 4; index++)
        expect((await call(serve.url, planId, `Before ${index}`)).status).toBe(200);
      const [victim] = workerPids(serve);
      const restarted = stderrLine(serve, /worker \d+ listening/);
      const exited = stderrLine(serve, /worker \d+ exited \(signal SIGKILL\); starting another/);
      process.kill(victim as number, 'SIGKILL');
      await exited;
      // The other worker answers while the new one starts, and takes a subscriber, which
      // then sees the calls the new worker answers too.
      expect((await call(serve.url, planId, 'Meanwhile')).status).toBe(200);
      const subscriber = await subscribe(serve.url);
      await restarted;
      const pids = workerPids(serve);
      expect(pids).toHaveLength(2);
      expect(pids).not.toContain(victim);
      for (let index = 0; index < 4; index++)
        expect((await call(serve.url, planId, `After ${index}`)).status).toBe(200);
      expect(await subscriber.seqs(4)).toEqual([6, 7, 8, 9]);
      await subscriber.cancel();
      expect(await verifiedChain(serve.url, planId)).toMatchObject({ valid: true, length: 9 });
    } finally {
      await stop(serve);
    }
  }, 60_000);

  it('exits 1 when its workers cannot start', async () => {
    const result = await runCli([
      'serve',
      '--port',
      '0',
      '--workers',
      '2',
      '--policy',
      join(tmpdir(), `missing-${randomUUID()}.json`),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/a worker could not start/);
  }, 60_000);

  it('refuses --workers 0', async () => {
    const result = await runCli(['serve', '--workers', '0']);
    expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/--workers/) });
  });
});
