import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { AgentEvent } from '@mtpx/agent';
import { type AppRun, runAppProcess } from '@mtpx/example-kit/testing';
import { safeParseJson } from '@mtpx/protocol';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { TOTAL } from './scenario';

const appDirectory = join(import.meta.dirname, '..');
const redis = new Redis({ host: '127.0.0.1', port: 6379 });
const prefixes: string[] = [];

/** A key prefix of its own for one run of the app. */
function freshPrefix(): string {
  const prefix = `mtpx-test-distributed-agent-${randomBytes(4).toString('hex')}`;
  prefixes.push(prefix);
  return prefix;
}

/** Runs the app as `pnpm start` does (`tsx src/main.ts …`) and waits for it to exit. */
function runApp(args: string[]): Promise<AppRun> {
  return runAppProcess(appDirectory, 'src/main.ts', args);
}

afterAll(async () => {
  // The app cleans up after itself; this only catches what a failed run left.
  for (const prefix of prefixes) {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  }
  await redis.quit();
});

describe.concurrent('distributed-agent (smoke)', () => {
  it('--kill-one: a worker dies mid-call, its calls move, the answer and the ledger entry stay single', async () => {
    const prefix = freshPrefix();
    const { code, stdout, stderr } = await runApp([
      ...['--workers', '2', '--kill-one', '--stall-ms', '1000', '--latency', '800'],
      ...['--prefix', prefix],
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/killed worker \d+ \(kill -9\) while it ran call_\d+/);
    expect(stdout).toMatch(/^moved {2}call_\d+ {2}worker \d+ → worker \d+$/m);
    expect(stdout).toContain(`The eight chapters hold ${TOTAL} words in all`);
    expect(stdout).toMatch(/^calls +10 on 2 workers · moved after the kill: call_/m);
    expect(stdout).toMatch(new RegExp(`^ledger +1 entry: chapters: ${TOTAL} words$`, 'm'));
    // A self-contained run leaves no keys behind.
    expect(await redis.keys(`${prefix}:*`)).toEqual([]);
  });

  it('--json prints the agent events: ten calls, each finished once, then the answer', async () => {
    const prefix = freshPrefix();
    const { code, stdout } = await runApp([
      '--json',
      '--workers',
      '1',
      '--latency',
      '20',
      '--prefix',
      prefix,
    ]);
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => {
        const parsed = safeParseJson(line);
        if (!parsed.ok) throw new Error(`not a JSON line: ${line}`);
        return parsed.value as unknown as AgentEvent;
      });
    const finished = events.filter((event) => event.type === 'call-finished');
    expect(finished.map((event) => event.callId).sort()).toEqual(
      Array.from({ length: 10 }, (_, index) => `call_${index + 1}`).sort(),
    );
    expect(events.at(-1)).toMatchObject({ type: 'run-finished', output: { stop_reason: 'final' } });
  });

  it('--kill-one without workers of its own is a usage error', async () => {
    const { code, stderr } = await runApp([
      '--workers',
      '0',
      '--kill-one',
      '--prefix',
      freshPrefix(),
    ]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'distributed-agent: --kill-one needs workers this app starts (--workers 1 or more).\n',
    );
  });
});
