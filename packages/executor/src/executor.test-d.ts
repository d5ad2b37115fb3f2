import type { AssistantToolCall, ToolResult } from '@mtpx/protocol';
import { expectTypeOf, test } from 'vitest';
import type { ExecutorEvent } from './events/events';
import { createExecutor } from './executor';

const executor = createExecutor({ tools: [] });

test("a provider's assistant tool calls (with raw arguments and parse errors) feed straight in", () => {
  const calls: AssistantToolCall[] = [];
  expectTypeOf(executor.executeToolCalls(calls)).toEqualTypeOf<Promise<ToolResult[]>>();
  const run = executor.start();
  run.add(calls[0] as AssistantToolCall);
});

test('events narrow by type', () => {
  const onEvent = (event: ExecutorEvent) => {
    if (event.type === 'call-finished') {
      expectTypeOf(event.durationMs).toEqualTypeOf<number>();
      expectTypeOf(event.callId).toEqualTypeOf<string>();
    }
    if (event.type === 'plan-finished') expectTypeOf(event.results).toEqualTypeOf<ToolResult[]>();
  };
  executor.execute({ batches: [] }, { onEvent, runId: 'run_1', signal: AbortSignal.timeout(1000) });
});
