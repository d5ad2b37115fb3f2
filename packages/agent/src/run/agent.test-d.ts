import type { ToolResult, Usage } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { expectTypeOf, test } from 'vitest';
import {
  type AgentEvent,
  type AgentStream,
  createAgent,
  type RunOutput,
  type StopReason,
} from '../index';

const agent = createAgent({ provider: scriptedProvider([]), tools: [] });

test('run resolves with the output; stream is an iterable of events with a result', () => {
  expectTypeOf(agent.run('Hi')).toEqualTypeOf<Promise<RunOutput>>();
  const stream = agent.stream('Hi');
  expectTypeOf(stream).toEqualTypeOf<AgentStream>();
  expectTypeOf(stream.result).toEqualTypeOf<Promise<RunOutput>>();
  expectTypeOf<RunOutput['stop_reason']>().toEqualTypeOf<StopReason>();
  expectTypeOf<RunOutput['usage']>().toEqualTypeOf<Usage>();
});

test("events narrow by type, the executor's included", () => {
  const onEvent = (event: AgentEvent) => {
    expectTypeOf(event.runId).toEqualTypeOf<string>();
    expectTypeOf(event.at).toEqualTypeOf<number>();
    if (event.type === 'call-finished') {
      expectTypeOf(event.durationMs).toEqualTypeOf<number>();
      expectTypeOf(event.round).toEqualTypeOf<number>();
      expectTypeOf(event.executorAt).toEqualTypeOf<number | undefined>();
      expectTypeOf(event.result).toEqualTypeOf<ToolResult>();
    }
    if (event.type === 'round-finished') expectTypeOf(event.modelMs).toEqualTypeOf<number>();
    if (event.type === 'run-finished') expectTypeOf(event.output).toEqualTypeOf<RunOutput>();
    if (event.type === 'tool-call-ready') expectTypeOf(event.refused).toEqualTypeOf<boolean>();
  };
  agent.run('Hi', { onEvent });
});

test('asTool gives a tool typed by its input', () => {
  const tool = createAgent({ provider: scriptedProvider([]), tools: [], name: 'x' }).asTool();
  expectTypeOf(tool.execute).parameter(0).toEqualTypeOf<{ input: string }>();
});
