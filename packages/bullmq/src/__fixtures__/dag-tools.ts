import { defineTool } from '@mtpx/executor';
import type { ToolCallInput } from '@mtpx/protocol';
import { Redis } from 'ioredis';
import { z } from 'zod';

/** SET NX the key; only if that set it, count the effect (atomically, in Redis). */
const applyOnce = `if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  return redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
end
return 0`;

/**
 * The side-effect tool of the crash tests, shared by the test and its worker processes:
 * each attempt counts itself (`attempts`), applies its effect once per idempotency key
 * (SET NX and the count in one script — a second attempt of the same call finds it applied), reports progress with
 * its process id, then holds the call for `ms` (so a kill lands mid-call), counts itself
 * `completed` unless its signal aborted first, and answers.
 */
export function effectTool(redis: Redis, prefix: string) {
  return defineTool({
    name: 'dag.effect',
    description: 'Applies a counted side effect once per call, then answers its step.',
    input_schema: z.object({ step: z.number().int(), ms: z.number(), inputs: z.array(z.unknown()) }),
    risk_level: 'write',
    execute: async ({ step, ms }, { call, idempotencyKey, reportProgress, signal }) => {
      await redis.hincrby(`${prefix}:attempts`, call.id, 1);
      // The effect and its dedupe mark in one step (a kill between two commands would leave
      // the mark without the effect).
      await redis.eval(applyOnce, 2, `${prefix}:effect:${idempotencyKey}`, `${prefix}:effects`, call.id);
      reportProgress({ message: 'effect applied', data: { pid: process.pid } });
      const finished = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), ms);
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve(false);
        });
      });
      // Bodies that ran to their end (not aborted: cancelled, or handed back by a closing worker).
      if (finished) await redis.hincrby(`${prefix}:completed`, call.id, 1);
      return step;
    },
  });
}

/**
 * A layered DAG of `size` calls: call i references up to two calls of the layer before
 * (so results flow through `$ref`s), `width` calls a layer.
 */
export function layeredDag(size: number, width: number, ms: number): ToolCallInput[] {
  return Array.from({ length: size }, (_, index) => {
    const layer = Math.floor(index / width);
    const inputs =
      layer === 0
        ? []
        : [index - width, (layer - 1) * width + ((index + 1) % width)].map((source) => ({
            $ref: `call_${source + 1}`,
          }));
    return { id: `call_${index + 1}`, name: 'dag.effect', arguments: { step: index, ms, inputs } };
  });
}
