import { createExecutor, defineTool, type Executor, type PlanExecution } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import type { ToolCallInput } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { openAIIds, seedTurn } from '../__fixtures__/seed';
import { type AgentEvent, createAgent } from '../index';

/**
 * The executor as given, except that every call handed to it — one by one (`start` →
 * `add`) or as a batch (`executeToolCalls`) — is recorded, in the order it arrives.
 */
function recordingExecutor(executor: Executor, seen: ToolCallInput[]): Executor {
  return {
    registry: executor.registry,
    ...(executor.limits === undefined ? {} : { limits: executor.limits }),
    execute: (plan, options) => executor.execute(plan, options),
    stream: (plan, options) => executor.stream(plan, options),
    executeToolCalls: (calls, options) => {
      seen.push(...calls);
      return executor.executeToolCalls(calls, options);
    },
    start: (options) => {
      const execution = executor.start(options);
      return new Proxy(execution, {
        get(target, key) {
          if (key === 'add') {
            return (call: ToolCallInput) => {
              seen.push(call);
              target.add(call);
            };
          }
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as PlanExecution;
    },
  };
}

const note = defineTool({
  name: 'notes.append',
  description: 'Append a line to the notes.',
  risk_level: 'write',
  input_schema: { type: 'object', properties: { line: { type: 'number' } } },
  execute: () => 'appended',
});

/**
 * One response with everything the agent decides on before the executor: positional
 * aliases (`call_1` … rewritten to the API's ids), a write call (held while streaming), a
 * duplicate id, and a call past the run's call limit (refused, never handed over).
 */
function script() {
  const seed = seedTurn(openAIIds);
  return scriptedProvider([
    {
      toolCalls: [
        ...(seed.toolCalls ?? []),
        { id: 'call_note', name: 'notes.append', arguments: { line: { $ref: 'call_4' } } },
        { id: openAIIds[0], name: 'calculator.add', arguments: { a: 1, b: 2 } },
        { id: 'call_over', name: 'calculator.add', arguments: { a: 3, b: 4 } },
      ],
    },
    { text: 'Done.' },
  ]);
}

describe('the documented path: the executor sees exactly the calls of the tool-call-ready events, in order', () => {
  it.each(['run', 'stream'] as const)('%s()', async (mode) => {
    const seen: ToolCallInput[] = [];
    const events: AgentEvent[] = [];
    const agent = createAgent({
      provider: script(),
      tools: recordingExecutor(createExecutor({ tools: [calculatorToolkit(), note] }), seen),
      toolCallLimit: 6,
    });
    const onEvent = (event: AgentEvent) => events.push(event);
    const output =
      mode === 'run'
        ? await agent.run('Compute and note it.', { onEvent })
        : await agent.stream('Compute and note it.', { onEvent }).result;

    const ready = events.flatMap((event) =>
      event.type === 'tool-call-ready' && !event.refused ? [event.call] : [],
    );
    expect(ready).toHaveLength(6);
    expect(seen).toEqual(ready);
    // The same objects, not copies: nothing sits between the event and the executor.
    for (const [index, call] of seen.entries()) expect(call).toBe(ready[index]);
    // The aliases were rewritten before the executor saw the calls.
    expect(seen[1]).toMatchObject({ arguments: { a: 4, b: { $ref: openAIIds[0] } } });
    if (mode === 'stream') {
      // Held by the executor while the model was still writing, stamped by the agent.
      const held = events.find((event) => event.type === 'call-held');
      expect(held).toMatchObject({ callId: 'call_note', round: 1, reason: 'risk level write' });
      expect(held?.runId).toBe(output.run_id);
    }
    expect(output.tool_results.map((result) => result.error_code ?? result.output)).toEqual([
      12,
      48,
      16,
      31,
      'appended',
      'invalid_plan',
      'denied',
    ]);
  });
});
