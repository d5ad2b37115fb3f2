// What recording costs: `recordRuns` (from @mtpx/inspector) as the executor's `onEvent`,
// per event, against the executor's own cost per call. Run:
//   pnpm --filter bench bench:recorder [-- --calls N --repetitions N]
// Prints the medians; the bar is an overhead per event of at most 5 % of the executor's
// per-call cost. Not a row of the README table (the lead's full bench run writes that).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createExecutor, defineTool, type ExecutorEvent } from '@mtpx/executor';
import { recordRuns } from '@mtpx/inspector';
import type { ToolCallInput } from '@mtpx/protocol';
import { settle, timed } from './support/clock';
import { interleave, summarize } from './support/stats';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    calls: { type: 'string', default: '2000' },
    repetitions: { type: 'string', default: '15' },
  },
});
const count = Number(values.calls);
const repetitions = Number(values.repetitions);

const noOp = defineTool({
  name: 'bench.noop',
  description: 'Returns `step` at once.',
  input_schema: { type: 'object', properties: { step: { type: 'integer' } }, required: ['step'] },
  execute: async (args) => (args as { step: number }).step,
});
const calls: ToolCallInput[] = Array.from({ length: count }, (_, index) => ({
  id: `call_${index + 1}`,
  name: noOp.name,
  arguments: { step: index },
}));

const dir = await mkdtemp(join(tmpdir(), 'mtpx-bench-recorder-'));
const recorder = recordRuns({ dir });
const executor = createExecutor({ tools: [noOp] });
let events = 0;
let run = 0;
const counting = (_event: ExecutorEvent) => {
  events += 1;
};

const perCall = (work: () => Promise<unknown>) => async () => {
  await settle();
  return ((await timed(work)) * 1000) / count;
};
try {
  for (let warm = 0; warm < 3; warm += 1) {
    await executor.executeToolCalls(calls);
    await executor.executeToolCalls(calls, { onEvent: recorder, runId: `warm_${warm}` });
  }
  await executor.executeToolCalls(calls, { onEvent: counting });
  const eventsPerCall = events / count;
  const samples = await interleave(repetitions, [
    ['none', perCall(() => executor.executeToolCalls(calls))],
    ['noop', perCall(() => executor.executeToolCalls(calls, { onEvent: () => {} }))],
    [
      'inline',
      async () => {
        run += 1;
        const perCallMicroseconds = await perCall(() =>
          executor.executeToolCalls(calls, { onEvent: recorder, runId: `bench_${run}` }),
        )();
        await recorder.flush(); // written, but outside the timed run
        return perCallMicroseconds;
      },
    ],
    [
      'total',
      perCall(async () => {
        run += 1;
        await executor.executeToolCalls(calls, { onEvent: recorder, runId: `bench_${run}` });
        await recorder.flush(); // serialising and writing count too
      }),
    ],
  ] as const);
  const none = summarize(samples.none).median;
  const noop = summarize(samples.noop).median;
  const inline = summarize(samples.inline).median;
  const total = summarize(samples.total).median;
  const inlinePerEvent = (inline - noop) / eventsPerCall;
  const totalPerEvent = (total - noop) / eventsPerCall;
  const fixed = (value: number) => value.toFixed(2);
  const share = (value: number) => `${fixed((value / none) * 100)} %`;
  process.stdout.write(
    [
      `recorder overhead, ${count} independent no-op calls, ${repetitions} repetitions (medians):`,
      `  executor, no onEvent             ${fixed(none)} µs/call (the executor's per-call cost)`,
      `  executor, no-op onEvent          ${fixed(noop)} µs/call  (${fixed(eventsPerCall)} events/call)`,
      `  executor, recordRuns, in the run ${fixed(inline)} µs/call`,
      `  executor, recordRuns + writing   ${fixed(total)} µs/call`,
      `  per event, on the run's path     ${fixed(inlinePerEvent)} µs = ${share(inlinePerEvent)} of the per-call cost (bar: ≤ 5 %)`,
      `  per event, serialised + written  ${fixed(totalPerEvent)} µs = ${share(totalPerEvent)} of the per-call cost`,
      '',
    ].join('\n'),
  );
} finally {
  await recorder.close();
  await rm(dir, { recursive: true, force: true });
}
