/**
 * The seed's four-call `$ref` chain — 15 + (4 × (18 − 6)) / 3 in ONE model response —
 * run by the executor, then a timeline of eager scheduling against strict batches.
 *
 * Run: pnpm --filter @mtpx/executor run example:calculator-chain
 */
import {
  createExecutor,
  defineTool,
  type ExecutorEvent,
  type PlanExecution,
  ToolExecutionError,
} from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import type { ExecutionPlanInput } from '@mtpx/protocol';
import { z } from 'zod';

const executor = createExecutor({ tools: [calculatorToolkit()] });

// 1. One native response, four calls; each `$ref` is the output of an earlier call.
const results = await executor.executeToolCalls([
  { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
  { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
  { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
  { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
]);
console.log('15 + (4 × (18 − 6)) / 3, one response, four calls:');
for (const result of results)
  console.log(`  ${result.call_id}  ${result.tool_name.padEnd(20)} → ${result.output}`);

// 2. Model mistakes are results the model can read, never exceptions.
const mistakes = await executor.executeToolCalls([
  { id: 'call_1', name: 'calculator.add', arguments: { a: '15', b: 27 } },
  { id: 'call_2', name: 'calculator.divide', arguments: { a: 1, b: 0 } },
  { id: 'call_3', name: 'calculator.sqrt', arguments: { x: { $ref: 'call_2' } } },
]);
console.log('\nWhat a model reads when it gets things wrong:');
for (const result of mistakes)
  console.log(`  ${result.call_id}  [${result.error_code}] ${result.error}`);

// 3. Eager scheduling versus strict batches: A is slow, B fast, C needs only B.
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new ToolExecutionError({ message: 'cancelled', code: 'cancelled' }));
    });
  });
const work = defineTool({
  name: 'demo.work',
  description: 'Works for `ms` milliseconds and returns its label.',
  input_schema: z.object({
    label: z.string(),
    ms: z.number().int().min(0),
    after: z.unknown().optional(),
  }),
  execute: async ({ label, ms }, { signal }) => {
    await sleep(ms, signal);
    return label;
  },
});
const plan: ExecutionPlanInput = {
  batches: [
    {
      mode: 'parallel',
      calls: [
        { id: 'A', name: 'demo.work', arguments: { label: 'A', ms: 300 } },
        { id: 'B', name: 'demo.work', arguments: { label: 'B', ms: 50 } },
      ],
    },
    {
      mode: 'parallel',
      calls: [
        { id: 'C', name: 'demo.work', arguments: { label: 'C', ms: 50, after: { $ref: 'B' } } },
      ],
    },
  ],
};

/** One line per call: `·` before it started, `█` while it ran. */
function timeline(events: ExecutorEvent[]): string[] {
  const started = new Map<string, number>();
  const lines: string[] = [];
  const scale = 20; // milliseconds per character
  for (const event of events) {
    if (event.type === 'call-started') started.set(event.callId, event.at);
    if (event.type === 'call-finished') {
      const from = started.get(event.callId) ?? 0;
      const bar = `${'·'.repeat(Math.round(from / scale))}${'█'.repeat(Math.max(1, Math.round(event.durationMs / scale)))}`;
      lines.push(`    ${event.callId}  ${bar}  ${Math.round(from)}–${Math.round(event.at)} ms`);
    }
  }
  return lines.sort();
}

console.log('\nA slow, B fast, C needs only B:');
for (const scheduling of ['eager', 'batches'] as const) {
  const events: ExecutorEvent[] = [];
  await createExecutor({ tools: [work], scheduling }).execute(plan, {
    onEvent: (event) => events.push(event),
  });
  console.log(`  ${scheduling}:`);
  for (const line of timeline(events)) console.log(line);
}

// 4. A streamed response: calls are added as they arrive and start at once.
const run: PlanExecution = createExecutor({ tools: [work] }).start();
run.add({ id: 'first', name: 'demo.work', arguments: { label: 'first', ms: 10 } });
run.add({
  id: 'second',
  name: 'demo.work',
  arguments: { label: 'second', ms: 10, after: { $ref: 'first' } },
});
run.end();
console.log(`\nStreamed: ${(await run.results).map((result) => result.output).join(', ')}`);
