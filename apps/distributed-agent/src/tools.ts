import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool } from '@mtpx/executor';
import type { Redis } from 'ioredis';
import { z } from 'zod';

/** Where the app keeps its queue and its ledger in Redis. */
export interface AppLocation {
  prefix: string;
  queue: string;
}

/** The words a fetched page has: a stand-in for real work, the same in every process. */
export function wordsOf(url: string): number {
  let sum = 0;
  for (const char of url) sum = (sum * 31 + (char.codePointAt(0) ?? 0)) % 997;
  return 100 + sum;
}

/** SET NX the call's mark; only if that set it, append the entry (atomically, in Redis). */
const recordOnce = `if redis.call('SET', KEYS[1], '1', 'NX') then
  redis.call('RPUSH', KEYS[2], ARGV[1])
  return 1
end
return 0`;

/**
 * The app's tools, defined once: the orchestrator uses their specs, the workers run them.
 * `pages.fetch` is the heavy one (it holds its worker for `latencyMs`); `ledger.record` is
 * the side effect, applied once per idempotency key whatever happens to its workers.
 */
export function appTools(redis: Redis, location: AppLocation, latencyMs: number) {
  const fetchPage = defineTool({
    name: 'pages.fetch',
    description: 'Fetches a page and counts its words.',
    input_schema: z.object({ url: z.string() }),
    execute: async ({ url }, { reportProgress, signal }) => {
      reportProgress({ message: `fetching ${url}`, data: { worker: process.pid } });
      await sleep(latencyMs, undefined, { signal });
      return wordsOf(url);
    },
  });
  const total = defineTool({
    name: 'pages.total',
    description: 'Adds word counts.',
    input_schema: z.object({ counts: z.array(z.number()) }),
    execute: ({ counts }, { reportProgress }) => {
      reportProgress({ message: 'adding', data: { worker: process.pid } });
      return counts.reduce((sum, count) => sum + count, 0);
    },
  });
  const record = defineTool({
    name: 'ledger.record',
    description: 'Appends an entry to the shared ledger (once per call, however often it runs).',
    input_schema: z.object({ entry: z.string(), words: z.number() }),
    risk_level: 'write',
    execute: async ({ entry, words }, { idempotencyKey, reportProgress }) => {
      reportProgress({ message: 'recording', data: { worker: process.pid } });
      // The mark and the entry in one step: a worker killed between two commands would
      // leave the mark without the entry.
      const fresh = await redis.eval(
        recordOnce,
        2,
        ledgerKey(location, idempotencyKey),
        ledgerListKey(location),
        `${entry}: ${words} words`,
      );
      return { recorded: true, firstTime: fresh === 1 };
    },
  });
  return [fetchPage, total, record];
}

/** The marker of one applied ledger entry. */
export function ledgerKey(location: AppLocation, idempotencyKey: string): string {
  return `${location.prefix}:${location.queue}:ledger:${idempotencyKey}`;
}

/** The ledger itself: one line per recorded call. */
export function ledgerListKey(location: AppLocation): string {
  return `${location.prefix}:${location.queue}:ledger`;
}
