import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis every machine of the project runs (MACHINE.md). */
export const redisOptions = { host: '127.0.0.1', port: 6379 } as const;

/** A key prefix of its own for one test file, and a way to delete everything under it. */
export function testPrefix(name: string): { prefix: string; cleanUp(): Promise<void> } {
  const prefix = `mtpx-test-${name}-${process.pid}-${randomBytes(4).toString('hex')}`;
  return {
    prefix,
    cleanUp: async () => {
      const redis = new Redis(redisOptions);
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
    },
  };
}
