import { Redis } from 'ioredis';

/** The Redis every machine of the project runs (MACHINE.md). */
export const redisConnection = { host: '127.0.0.1', port: 6379 } as const;

/** Deletes every key under `prefix:` (row 7 leaves nothing behind). */
export async function deleteKeysUnder(prefix: string): Promise<void> {
  const redis = new Redis(redisConnection);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
}
