import { describe, expect, it } from 'vitest';
import { ToolExecutionError } from '../errors';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';
import { idempotencyKeyOf } from './idempotency-key';

/** Records the idempotency key of every attempt, by call id. */
function keyRecorder(failFirstAttempt = false) {
  const keys = new Map<string, string[]>();
  const tool = defineTool({
    name: 'mail.send',
    description: 'Pretends to send mail; records its key.',
    input_schema: { type: 'object' },
    retries: failFirstAttempt ? 1 : 0,
    execute: (args, { call, attempt, idempotencyKey }) => {
      keys.set(call.id, [...(keys.get(call.id) ?? []), idempotencyKey]);
      if (failFirstAttempt && attempt === 1) {
        throw new ToolExecutionError({ message: 'busy', retryable: true, retryAfterMs: 0 });
      }
      return args;
    },
  });
  return { tool, keys };
}

describe('ToolContext.idempotencyKey', () => {
  it('is idem_ + hex SHA-256 of canonical [runId, call id, arguments]', () => {
    const key = idempotencyKeyOf('run_1', 'call_1', { b: 2, a: 1 });
    expect(key).toMatch(/^idem_[0-9a-f]{64}$/);
    // Canonical JSON: key order does not matter.
    expect(idempotencyKeyOf('run_1', 'call_1', { a: 1, b: 2 })).toBe(key);
    expect(idempotencyKeyOf('run_2', 'call_1', { a: 1, b: 2 })).not.toBe(key);
    expect(idempotencyKeyOf('run_1', 'call_2', { a: 1, b: 2 })).not.toBe(key);
    expect(idempotencyKeyOf('run_1', 'call_1', { a: 1, b: 3 })).not.toBe(key);
    expect(idempotencyKeyOf(undefined, 'call_1', {})).toBe(idempotencyKeyOf('', 'call_1', {}));
  });

  it('is the same on every attempt of a call', async () => {
    const { tool, keys } = keyRecorder(true);
    const executor = createExecutor({ tools: [tool], retryBackoff: { initialDelayMs: 0 } });
    const [result] = await executor.executeToolCalls(
      [{ id: 'call_1', name: 'mail.send', arguments: { to: 'ada' } }],
      { runId: 'run_1' },
    );
    expect(result?.success).toBe(true);
    const expected = idempotencyKeyOf('run_1', 'call_1', { to: 'ada' });
    expect(keys.get('call_1')).toEqual([expected, expected]);
  });

  it('hashes the resolved arguments, and is the same in another executor', async () => {
    const first = keyRecorder();
    const second = keyRecorder();
    const calls = [
      { id: 'call_1', name: 'mail.send', arguments: { to: 'ada' } },
      { id: 'call_2', name: 'mail.send', arguments: { copy: { $ref: 'call_1' } } },
    ];
    await createExecutor({ tools: [first.tool] }).executeToolCalls(calls, { runId: 'run_9' });
    await createExecutor({ tools: [second.tool] }).executeToolCalls(calls, { runId: 'run_9' });
    expect(first.keys.get('call_2')).toEqual([
      idempotencyKeyOf('run_9', 'call_2', { copy: { to: 'ada' } }),
    ]);
    expect(second.keys).toEqual(first.keys);
  });
});
