import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ExecutorEvent } from '../events/events';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';

function tools(ran: string[]) {
  return [
    defineTool({
      name: 'pay',
      description: 'Makes a payment.',
      risk_level: 'destructive',
      input_schema: { type: 'object' },
      execute: () => {
        ran.push('pay');
        return 'paid';
      },
    }),
    defineTool({
      name: 'receipt',
      description: 'Needs the payment.',
      input_schema: { type: 'object' },
      execute: () => {
        ran.push('receipt');
        return 'receipt';
      },
    }),
    defineTool({
      name: 'lookup',
      description: 'Takes 100 ms.',
      input_schema: { type: 'object' },
      execute: async () => {
        await delay(100); // the tool's own work, not a wait in the test
        ran.push('lookup');
        return 'found';
      },
    }),
  ];
}

describe('approval blocks only what depends on it', () => {
  it.each([Number.POSITIVE_INFINITY, 1])(
    'an independent 100 ms call finishes before the approval is given (concurrency %s)',
    async (concurrency) => {
      const ran: string[] = [];
      const events: ExecutorEvent[] = [];
      let approve: (value: boolean) => void = () => {};
      let lookupDone: () => void = () => {};
      const lookupFinished = new Promise<void>((resolve) => {
        lookupDone = resolve;
      });
      const executor = createExecutor({
        tools: tools(ran),
        concurrency,
        approve: () =>
          new Promise<boolean>((answer) => {
            approve = answer;
          }),
      });
      const results = executor.executeToolCalls(
        [
          { id: 'call_pay', name: 'pay' },
          { id: 'call_receipt', name: 'receipt', depends_on: ['call_pay'] },
          { id: 'call_lookup', name: 'lookup' },
        ],
        {
          onEvent: (event) => {
            events.push(event);
            if (event.type === 'call-finished' && event.callId === 'call_lookup') lookupDone();
          },
        },
      );
      await lookupFinished;
      expect(ran).toEqual(['lookup']); // the payment still waits for its approval
      approve(true);
      expect((await results).map((result) => result.success)).toEqual([true, true, true]);
      const done = events;
      expect(ran).toEqual(['lookup', 'pay', 'receipt']);
      const order = done
        .filter((event) => 'callId' in event)
        .map((event) => `${event.type} ${(event as { callId: string }).callId}`);
      expect(order.indexOf('approval-requested call_pay')).toBeLessThan(
        order.indexOf('call-finished call_lookup'),
      );
      expect(order.indexOf('call-finished call_lookup')).toBeLessThan(
        order.indexOf('approval-resolved call_pay'),
      );
      expect(order.indexOf('approval-resolved call_pay')).toBeLessThan(
        order.indexOf('call-started call_receipt'),
      );
      const resolved = done.find((event) => event.type === 'approval-resolved');
      const finished = done.find(
        (event) => event.type === 'call-finished' && event.callId === 'call_pay',
      );
      if (resolved?.type !== 'approval-resolved' || finished?.type !== 'call-finished') {
        throw new Error('missing events');
      }
      expect(resolved).toMatchObject({ approved: true, toolName: 'pay' });
      // The person's wait is reported apart and not counted as tool time.
      const started = done.find(
        (event) => event.type === 'call-started' && event.callId === 'call_pay',
      );
      expect(finished.approvalMs).toBe(resolved.waitMs);
      const elapsed = finished.at - (started?.at ?? 0);
      expect(elapsed - finished.durationMs).toBeCloseTo(resolved.waitMs, 0);
    },
  );
});
