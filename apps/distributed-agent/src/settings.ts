import { CliError } from '@mtpx/example-kit';
import type { RedisOptions } from 'ioredis';

/** The defaults both the orchestrator and the workers use, so they meet on one queue. */
export const DEFAULTS = {
  redis: 'redis://127.0.0.1:6379',
  prefix: 'mtpx-distributed-agent',
  queue: 'tools',
  workers: 3,
  concurrency: 2,
  latencyMs: 1_500,
  stallMs: 2_000,
} as const;

/** `redis://host:port[/db]` as ioredis options. */
export function redisOptionsOf(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`--redis must be a redis:// URL, not "${url}".`);
  }
  if (parsed.protocol !== 'redis:')
    throw new CliError(`--redis must be a redis:// URL, not "${url}".`);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379), db };
}

/** A flag's non-negative integer value, or `fallback` when it was not given. */
export function integerFlag(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 0) {
    throw new CliError(`${flag} takes a non-negative whole number, not "${value}".`);
  }
  return number;
}
