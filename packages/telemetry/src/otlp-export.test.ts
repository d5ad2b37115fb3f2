import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgent } from '@mtpx/agent';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { safeParseJson } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { traceRuns } from './index';

interface OtlpSpan {
  name: string;
  links?: Array<{ spanId: string }>;
  spanId: string;
  attributes: Array<{ key: string; value: { stringValue?: string } }>;
}

function body(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('OTLP/HTTP export', () => {
  it('a local receiver gets the run as OTLP JSON, links included', async () => {
    const received: OtlpSpan[] = [];
    const waiters: Array<() => void> = [];
    const server = createServer(async (request, response) => {
      const text = await body(request);
      const parsed = safeParseJson(text);
      if (request.url === '/v1/traces' && parsed.ok) {
        const document = parsed.value as unknown as {
          resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
        };
        for (const resource of document.resourceSpans)
          for (const scope of resource.scopeSpans) received.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters.splice(0)) wake();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;

    const exporter = new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` });
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    closers.push(() => provider.shutdown());
    const agent = createAgent({
      provider: scriptedProvider([
        {
          toolCalls: [
            { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
            {
              id: 'call_2',
              name: 'calculator.multiply',
              arguments: { a: 4, b: { $ref: 'call_1' } },
            },
          ],
        },
        { text: '48' },
      ]),
      tools: [calculatorToolkit()],
      onEvent: traceRuns({ tracer: provider.getTracer('otlp-test') }),
    });
    await agent.run('Compute.');
    await provider.forceFlush();
    while (received.length < 5) await new Promise<void>((resolve) => waiters.push(resolve));

    const names = received.map((span) => span.name).sort();
    expect(names).toEqual([
      'chat scripted',
      'chat scripted',
      'execute_tool calculator.multiply',
      'execute_tool calculator.subtract',
      'invoke_agent',
    ]);
    const first = received.find((span) => span.name === 'execute_tool calculator.subtract');
    const second = received.find((span) => span.name === 'execute_tool calculator.multiply');
    expect(second?.links?.map((link) => link.spanId)).toEqual([first?.spanId]);
  });
});
