import { createAgent } from '@mtpx/agent';
import { traceRuns } from '@mtpx/telemetry';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { offlineProvider } from './app';
import { INSTRUCTIONS, QUESTION, TOOL_ROUND } from './scenario';
import { agentTools, createWorkspace } from './workspace';

describe('the demo, traced with @mtpx/telemetry', () => {
  it('1 agent span, 2 chat spans, 6 tool spans, links matching the $refs', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const workspace = await createWorkspace();
    try {
      const agent = createAgent({
        provider: offlineProvider(),
        tools: agentTools(workspace.root, 20),
        instructions: INSTRUCTIONS,
        onEvent: traceRuns({ tracer: tracerProvider.getTracer('demo') }),
      });
      const output = await agent.stream(QUESTION).result;
      expect(output.final_text).toContain('= 31.');
    } finally {
      await workspace.remove();
    }
    const spans = exporter.getFinishedSpans();
    const of = (operation: string) =>
      spans.filter((span) => span.attributes['gen_ai.operation.name'] === operation);
    expect(of('invoke_agent')).toHaveLength(1);
    expect(of('chat')).toHaveLength(2);
    const tools = of('execute_tool');
    expect(tools).toHaveLength(6);

    const idOf = new Map<string, string>(
      tools.map((span: ReadableSpan) => [
        span.spanContext().spanId,
        String(span.attributes['gen_ai.tool.call.id']),
      ]),
    );
    const links = Object.fromEntries(
      tools.map((span) => [
        span.attributes['gen_ai.tool.call.id'],
        span.links.map((link) => idOf.get(link.context.spanId)),
      ]),
    );
    // Each call links to exactly the calls its $refs name in the scenario.
    const expected = Object.fromEntries(
      (TOOL_ROUND.toolCalls ?? []).map((call) => [
        call.id,
        JSON.stringify(call.arguments)
          .match(/"\$ref":"([^"]+)"/g)
          ?.map((match) => match.slice(8, -1)) ?? [],
      ]),
    );
    expect(links).toEqual(expected);
    expect(links.call_2).toEqual(['call_1']);
  });
});
