import { describe, expect, it } from 'vitest';
import type { ExecutorEvent } from '../events/events';
import { createExecutor } from '../executor';
import { holdSideEffects } from '../policy/side-effect-hold';
import { defineTool } from '../tools/define-tool';

/** A read-only and a write tool that log their runs. */
function executorWith(ran: string[]) {
  const tool = (name: string, risk: 'read_only' | 'write') =>
    defineTool({
      name,
      description: name,
      risk_level: risk,
      input_schema: { type: 'object' },
      execute: (args: Record<string, unknown>, { call }) => {
        ran.push(call.id);
        return args.value ?? call.id;
      },
    });
  return createExecutor({ tools: [tool('look', 'read_only'), tool('save', 'write')] });
}

const trace = (events: ExecutorEvent[]) =>
  events.flatMap((event) => {
    if (event.type === 'call-held') return [`held ${event.callId} (${event.reason})`];
    if (event.type === 'call-released') return [`released ${event.callId}`];
    if (event.type === 'call-started') return [`start ${event.callId}`];
    if (event.type === 'call-skipped') return [`skip ${event.callId} ${event.errorCode}`];
    return [];
  });

describe('holding calls until the response finished (safe eager dispatch)', () => {
  it('holds write calls and their dependents; read-only calls start at once; release runs the held ones', async () => {
    const ran: string[] = [];
    const events: ExecutorEvent[] = [];
    const execution = executorWith(ran).start({
      hold: holdSideEffects,
      onEvent: (event) => events.push(event),
    });
    execution.add({ id: 'call_r', name: 'look', arguments: {} });
    execution.add({ id: 'call_w', name: 'save', arguments: {} });
    execution.add({ id: 'call_d', name: 'look', arguments: { value: { $ref: 'call_w' } } });
    execution.add({ id: 'call_u', name: 'nope', arguments: {} });
    expect(ran).toEqual(['call_r']);
    execution.release();
    execution.end();
    const results = await execution.results;
    expect(ran).toEqual(['call_r', 'call_w', 'call_d']);
    expect(results.map((result) => result.error_code ?? result.output)).toEqual([
      'call_r',
      'call_w',
      'call_w',
      'unknown_tool',
    ]);
    expect(trace(events)).toEqual([
      'start call_r',
      'held call_w (risk level write)',
      'held call_d (depends on held call call_w)',
      'held call_u (no loaded tool is named "nope")',
      'released call_w',
      'start call_w',
      'released call_d',
      'released call_u',
      'start call_u',
      'start call_d',
    ]);
    const released = events.find((event) => event.type === 'call-released');
    expect(released).toMatchObject({ callId: 'call_w', toolName: 'save' });
    expect((released as { heldMs: number }).heldMs).toBeGreaterThanOrEqual(0);
  });

  it('dropHeld answers the held calls `cancelled` with its message; they never run', async () => {
    const ran: string[] = [];
    const events: ExecutorEvent[] = [];
    const execution = executorWith(ran).start({
      hold: holdSideEffects,
      onEvent: (event) => events.push(event),
    });
    execution.add({ id: 'call_r', name: 'look', arguments: {} });
    execution.add({ id: 'call_w', name: 'save', arguments: {} });
    execution.add({ id: 'call_d', name: 'look', arguments: { value: { $ref: 'call_w' } } });
    execution.dropHeld('Not run: the response did not finish (length).');
    // Held from now on means dropped at once.
    execution.add({ id: 'call_w2', name: 'save', arguments: {} });
    execution.end();
    const results = await execution.results;
    expect(ran).toEqual(['call_r']);
    expect(results.slice(1)).toMatchObject([
      { call_id: 'call_w', error_code: 'cancelled', skipped: true },
      { call_id: 'call_d', error_code: 'cancelled', skipped: true },
      { call_id: 'call_w2', error_code: 'cancelled', skipped: true },
    ]);
    expect(results[1]?.error).toBe('Not run: the response did not finish (length).');
    expect(trace(events).filter((line) => line.startsWith('skip'))).toEqual([
      'skip call_w cancelled',
      'skip call_d cancelled',
      'skip call_w2 cancelled',
    ]);
  });

  it('release after end() still fails calls that wait for ids that never arrived', async () => {
    const execution = executorWith([]).start({ hold: holdSideEffects });
    execution.add({ id: 'call_w', name: 'save', arguments: {}, depends_on: ['call_missing'] });
    execution.end();
    execution.release();
    const [result] = await execution.results;
    expect(result).toMatchObject({ error_code: 'invalid_plan', skipped: true });
  });

  it('without a hold rule nothing is held and release / dropHeld do nothing', async () => {
    const ran: string[] = [];
    const execution = executorWith(ran).start();
    execution.add({ id: 'call_w', name: 'save', arguments: {} });
    execution.dropHeld('never used');
    execution.end();
    const [result] = await execution.results;
    expect(result).toMatchObject({ success: true });
    expect(ran).toEqual(['call_w']);
  });

  it('a throwing hold rule rejects the results with hook_failed once the calls are done', async () => {
    const execution = executorWith([]).start({
      hold: () => {
        throw new Error('rule broke');
      },
    });
    execution.add({ id: 'call_r', name: 'look', arguments: {} });
    execution.end();
    await expect(execution.results).rejects.toMatchObject({ code: 'hook_failed' });
  });
});
