import { createAgent, InMemoryRunJournal } from '@mtpx/agent';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import type { Tracer } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { traceRuns } from './index';

/** One response with a `$ref` chain (1 → 2 → 3 → 4) and two independent calls (5 → 6). */
const toolRound: ScriptedTurn = {
  toolCalls: [
    { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
    { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
    { id: 'call_5', name: 'calculator.add', arguments: { a: 1, b: 2 } },
    { id: 'call_6', name: 'calculator.multiply', arguments: { a: { $ref: 'call_5' }, b: 2 } },
  ],
  usage: {
    inputTokens: 120,
    outputTokens: 80,
    totalTokens: 200,
    cachedInputTokens: 64,
    reasoningTokens: 16,
  },
};
const answer: ScriptedTurn = {
  text: '31, and 6.',
  usage: { inputTokens: 200, outputTokens: 5, totalTokens: 205 },
};

function tracing(): { tracer: Tracer; spans: () => ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('test'), spans: () => exporter.getFinishedSpans() };
}

function byCallId(spans: ReadableSpan[]): Map<string, ReadableSpan> {
  return new Map(
    spans
      .filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool')
      .map((span) => [String(span.attributes['gen_ai.tool.call.id']), span]),
  );
}

describe('traceRuns', () => {
  it('one invoke_agent span, a chat span per model call, an execute_tool span per call, links per $ref', async () => {
    const { tracer, spans } = tracing();
    const agent = createAgent({
      name: 'calculator',
      provider: scriptedProvider([toolRound, answer], { chunkDelayMs: 2, chunkSize: 16 }),
      tools: [calculatorToolkit()],
      onEvent: traceRuns({ tracer }),
    });
    const stream = agent.stream('Compute.', { runId: 'run_trace' });
    const output = await stream.result;
    expect(output.final_text).toBe('31, and 6.');

    const all = spans();
    const agentSpans = all.filter((span) => span.name === 'invoke_agent calculator');
    const chats = all.filter((span) => span.attributes['gen_ai.operation.name'] === 'chat');
    const tools = byCallId(all);
    expect(agentSpans).toHaveLength(1);
    expect(chats).toHaveLength(2);
    expect(tools.size).toBe(6);
    const [run] = agentSpans as [ReadableSpan];
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'calculator',
      'mtpx.run.id': 'run_trace',
      'mtpx.run.stop_reason': 'final',
      'gen_ai.usage.input_tokens': 320,
      'gen_ai.usage.output_tokens': 85,
    });
    for (const span of [...chats, ...tools.values()])
      expect(span.parentSpanContext?.spanId).toBe(run.spanContext().spanId);

    const [first] = chats as [ReadableSpan];
    expect(first.attributes).toMatchObject({
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 120,
      'gen_ai.usage.output_tokens': 80,
      'gen_ai.usage.cache_read.input_tokens': 64,
      'gen_ai.usage.reasoning.output_tokens': 16,
      'mtpx.round': 1,
    });

    const linked = (callId: string) =>
      (tools.get(callId)?.links ?? []).map((link) => {
        const target = [...tools.values()].find(
          (span) => span.spanContext().spanId === link.context.spanId,
        );
        return target?.attributes['gen_ai.tool.call.id'];
      });
    expect(linked('call_1')).toEqual([]);
    expect(linked('call_2')).toEqual(['call_1']);
    expect(linked('call_3')).toEqual(['call_2']);
    expect(linked('call_4')).toEqual(['call_3']);
    expect(linked('call_6')).toEqual(['call_5']);
    expect(tools.get('call_4')?.attributes).toMatchObject({
      'gen_ai.tool.name': 'calculator.add',
      'mtpx.tool.attempt': 1,
      'mtpx.tool.cached': false,
      'mtpx.tool.outcome': 'success',
      'mtpx.tool.approval': 'allow',
      'mtpx.tool.references': ['call_3'],
    });
    // The first call ran while the model was still writing the other five.
    expect(tools.get('call_1')?.attributes['mtpx.tool.started_during_stream']).toBe(true);
    // No content unless asked for.
    expect(tools.get('call_1')?.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
    expect(run.attributes['gen_ai.input.messages']).toBeUndefined();
  });

  it('captures content when switched on', async () => {
    const { tracer, spans } = tracing();
    const agent = createAgent({
      provider: scriptedProvider([toolRound, answer]),
      tools: [calculatorToolkit()],
      onEvent: traceRuns({ tracer, captureContent: true }),
    });
    await agent.run('Compute.');
    const tools = byCallId(spans());
    expect(tools.get('call_2')?.attributes['gen_ai.tool.call.arguments']).toBe(
      '{"a":4,"b":{"$ref":"call_1"}}',
    );
    expect(tools.get('call_4')?.attributes['gen_ai.tool.call.result']).toBe('31');
    const run = spans().find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(run?.attributes['gen_ai.input.messages']).toContain('Compute.');
    const last = spans().filter((span) => span.attributes['gen_ai.operation.name'] === 'chat')[1];
    expect(last?.attributes['gen_ai.output.messages']).toContain('31, and 6.');
  });

  it('a failed call and the call that needed it: error and skipped outcomes', async () => {
    const { tracer, spans } = tracing();
    const agent = createAgent({
      provider: scriptedProvider([
        {
          toolCalls: [
            { id: 'bad', name: 'calculator.divide', arguments: { a: 1, b: 0 } },
            { id: 'next', name: 'calculator.add', arguments: { a: { $ref: 'bad' }, b: 1 } },
          ],
        },
        { text: 'Cannot.' },
      ]),
      tools: [calculatorToolkit()],
      onEvent: traceRuns({ tracer }),
    });
    await agent.run('Divide.');
    const tools = byCallId(spans());
    expect(tools.get('bad')?.attributes).toMatchObject({ 'mtpx.tool.outcome': 'error' });
    expect(tools.get('bad')?.status.code).toBe(2);
    expect(tools.get('next')?.attributes).toMatchObject({
      'mtpx.tool.outcome': 'skipped',
      'error.type': 'dependency_failed',
    });
  });

  it('events it does not know become span events; approval and held calls by name', () => {
    const { tracer, spans } = tracing();
    const handler = traceRuns({ tracer });
    const base = { runId: 'run_x' };
    handler({
      ...base,
      type: 'run-started',
      at: 0,
      input: 'x',
      provider: 'p',
      model: 'm',
      streaming: false,
      eagerDispatch: false,
    });
    handler({ ...base, type: 'round-started', at: 1, round: 1, messageCount: 2, tools: [] });
    handler({ ...base, type: 'call-held', at: 2, callId: 'c1', reason: 'write call' });
    handler({
      ...base,
      type: 'call-started',
      at: 3,
      callId: 'c1',
      toolName: 'file.write',
      round: 1,
    });
    handler({ ...base, type: 'approval-requested', at: 4, callId: 'c1', toolName: 'file.write' });
    handler({
      ...base,
      type: 'approval-resolved',
      at: 9,
      callId: 'c1',
      toolName: 'file.write',
      approved: true,
      waitMs: 5,
    });
    handler({ ...base, type: 'something-new-happened', at: 10, detail: 'kept', count: 3 });
    handler({
      ...base,
      type: 'run-failed',
      at: 11,
      error: new Error('boom'),
      message: 'boom',
      round: 1,
      toolResults: [],
      durationMs: 11,
    });
    const all = spans();
    const tool = all.find((span) => span.name === 'execute_tool file.write');
    expect(tool?.attributes).toMatchObject({
      'mtpx.tool.held_reason': 'write call',
      'mtpx.tool.approval.approved': true,
      'mtpx.tool.approval.wait_ms': 5,
    });
    expect(tool?.events.map((event) => event.name)).toEqual([
      'mtpx.approval-requested',
      'mtpx.approval-resolved',
    ]);
    const run = all.find((span) => span.name === 'invoke_agent');
    const unknown = run?.events.find((event) => event.name === 'mtpx.something-new-happened');
    expect(unknown?.attributes).toEqual({
      'mtpx.event.run_id': 'run_x',
      'mtpx.event.detail': 'kept',
      'mtpx.event.count': 3,
    });
    expect(run?.status).toMatchObject({ code: 2, message: 'boom' });
    expect(all).toHaveLength(3); // the chat span and the open call were closed with the run
  });

  it('a call id used again in a later round gets a span of its own', async () => {
    const { tracer, spans } = tracing();
    const again = (a: number): ScriptedTurn => ({
      toolCalls: [{ id: 'call_1', name: 'calculator.add', arguments: { a, b: 1 } }],
    });
    const agent = createAgent({
      provider: scriptedProvider([again(1), again(2), { text: 'Done.' }]),
      tools: [calculatorToolkit()],
      onEvent: traceRuns({ tracer }),
    });
    await agent.run('Add twice.');
    const tools = spans().filter((span) => span.name === 'execute_tool calculator.add');
    // The executor refuses the second (its id is taken); before, its span was the first one's.
    expect(tools.map((span) => span.attributes['mtpx.tool.outcome'])).toEqual([
      'success',
      'skipped',
    ]);
  });

  it('a tracer that throws never reaches the run', async () => {
    const broken = {
      startSpan: () => {
        throw new Error('exporter down');
      },
    } as unknown as Tracer;
    const agent = createAgent({
      provider: scriptedProvider([toolRound, answer]),
      tools: [calculatorToolkit()],
      onEvent: traceRuns({ tracer: broken }),
    });
    const output = await agent.run('Compute.');
    expect(output.final_text).toBe('31, and 6.');
  });
});

describe('traceRuns and approvals left for later', () => {
  it('marks the wait: the call span names its approval and that it is pending; the run span says why the run stopped', async () => {
    const { tracer, spans } = tracing();
    const agent = createAgent({
      name: 'writer',
      provider: scriptedProvider([
        {
          toolCalls: [
            { id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: 2 } },
            {
              id: 'call_2',
              name: 'calculator.multiply',
              arguments: { a: { $ref: 'call_1' }, b: 2 },
            },
          ],
        },
      ]),
      tools: [calculatorToolkit()],
      policy: { tools: { 'calculator.multiply': 'ask' } },
      journal: new InMemoryRunJournal(),
      onEvent: traceRuns({ tracer }),
    });
    const output = await agent.run('Compute.', { runId: 'run_waiting' });
    expect(output.stopReason).toBe('awaiting_approval');
    const all = spans();
    const run = all.find((span) => span.name === 'invoke_agent writer');
    expect(run?.attributes['mtpx.run.stop_reason']).toBe('awaiting_approval');
    const waiting = byCallId(all).get('call_2');
    expect(waiting?.attributes).toMatchObject({
      'mtpx.tool.approval.id': output.pendingApprovals?.[0]?.approvalId,
      'mtpx.tool.approval.pending': true,
    });
  });
});
