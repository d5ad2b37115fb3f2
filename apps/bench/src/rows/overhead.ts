import { createExecutor, defineTool } from '@mtpx/executor';
import { planFromToolCalls, type ToolCallInput, type ToolResult } from '@mtpx/protocol';
import type { BenchConfig } from '../config';
import { settle, timed, timedSync } from '../support/clock';
import { formatNumber } from '../support/format';
import type { ResultLine, RowResult } from '../support/results';
import { interleave, pairedRatios, summarize } from '../support/stats';

/** The function every variant calls: it does nothing and resolves at once. */
async function noOp(args: { step: number }): Promise<number> {
  return args.step;
}

const noOpTool = defineTool({
  name: 'bench.noop',
  description: 'Returns `step` at once.',
  input_schema: {
    type: 'object',
    properties: { step: { type: 'integer' }, previous: {} },
    required: ['step'],
  },
  execute: (args) => noOp(args as { step: number }),
});

/** `count` calls with no references: what one response of independent look-ups looks like. */
function independentCalls(count: number): ToolCallInput[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `call_${index + 1}`,
    name: noOpTool.name,
    arguments: { step: index },
  }));
}

/** `length` calls, each taking the previous one's output: call_2 needs call_1, and so on. */
export function chainCalls(length: number): ToolCallInput[] {
  return Array.from({ length }, (_, index) => ({
    id: `call_${index + 1}`,
    name: noOpTool.name,
    arguments: index === 0 ? { step: 0 } : { step: index, previous: { $ref: `call_${index}` } },
  }));
}

function checkAllSucceeded(results: readonly ToolResult[], count: number): void {
  const failed = results.find((result) => !result.success);
  if (failed) throw new Error(`overhead: call ${failed.call_id} failed: ${failed.error}`);
  if (results.length !== count) throw new Error(`overhead: ${results.length} results of ${count}`);
}

/** Microseconds per call of each variant, interleaved, plus paired ratios. */
async function perCall(
  repetitions: number,
  count: number,
  executor: () => Promise<unknown>,
  bare: () => Promise<unknown>,
): Promise<{ executor: number[]; bare: number[] }> {
  const microsecondsPerCall = async (work: () => Promise<unknown>) => {
    await settle();
    return ((await timed(work)) * 1000) / count;
  };
  // Untimed rounds of each first: JIT, Ajv compilation.
  for (let round = 0; round < 3; round += 1) {
    await executor();
    await bare();
  }
  return interleave(repetitions, [
    ['executor', () => microsecondsPerCall(executor)],
    ['bare', () => microsecondsPerCall(bare)],
  ] as const);
}

/** The executor's own cost: its µs per call less the bare variant's, paired per repetition. */
function overheadNote(samples: { executor: number[]; bare: number[] }): string {
  const added = samples.executor.map((value, index) => value - (samples.bare[index] as number));
  return `adds ${formatNumber(summarize(added).median)} µs/call`;
}

/**
 * Row 2: what the executor costs per call over calling the same functions bare — 10,000
 * independent no-ops (vs `Promise.all`) and a 2,000-call `$ref` chain (vs an `await`
 * loop) — and how plan derivation grows with the chain's length.
 */
export async function overheadRow(config: BenchConfig): Promise<RowResult> {
  const { independentCalls: count, chainLength, derivationLengths, repetitions } = config.overhead;
  const executor = createExecutor({ tools: [noOpTool] });
  const lines: ResultLine[] = [];

  const independent = independentCalls(count);
  const parallel = await perCall(
    repetitions,
    count,
    async () => checkAllSucceeded(await executor.executeToolCalls(independent), count),
    () => Promise.all(independent.map((_, index) => noOp({ step: index }))),
  );
  lines.push(
    {
      benchmark: `${formatNumber(count)} independent no-ops`,
      variant: 'MTPX executor (`executeToolCalls`)',
      value: summarize(parallel.executor),
      unit: 'µs/call',
      ratio: { to: '`Promise.all`', value: pairedRatios(parallel.executor, parallel.bare) },
      note: `${overheadNote(parallel)} · Python MTPX: about 100 µs/call`,
    },
    {
      benchmark: `${formatNumber(count)} independent no-ops`,
      variant: 'bare `Promise.all`',
      value: summarize(parallel.bare),
      unit: 'µs/call',
    },
  );

  const chain = chainCalls(chainLength);
  const sequential = await perCall(
    repetitions,
    chainLength,
    async () => checkAllSucceeded(await executor.executeToolCalls(chain), chainLength),
    async () => {
      let previous = await noOp({ step: 0 });
      for (let step = 1; step < chainLength; step += 1) {
        previous = await noOp({ step: step + previous * 0 });
      }
    },
  );
  lines.push(
    {
      benchmark: `${formatNumber(chainLength)}-call \`$ref\` chain`,
      variant: 'MTPX executor (`executeToolCalls`)',
      value: summarize(sequential.executor),
      unit: 'µs/call',
      ratio: { to: '`await` loop', value: pairedRatios(sequential.executor, sequential.bare) },
      note: overheadNote(sequential),
    },
    {
      benchmark: `${formatNumber(chainLength)}-call \`$ref\` chain`,
      variant: 'bare sequential `await` loop',
      value: summarize(sequential.bare),
      unit: 'µs/call',
    },
  );

  lines.push(...(await derivationLines(derivationLengths, repetitions)));
  return {
    row: 2,
    title: 'Overhead',
    measures:
      'Executor cost per call over calling the same no-op functions bare, and plan derivation time by chain length.',
    repetitions,
    lines,
  };
}

/**
 * `planFromToolCalls` on chains of each length, interleaved; each sample times enough
 * derivations to last a few milliseconds. Linear growth shows as a flat µs per call and
 * a ratio to the shortest chain equal to the length ratio.
 */
async function derivationLines(
  lengths: readonly number[],
  repetitions: number,
): Promise<ResultLine[]> {
  const chains = lengths.map((length) => chainCalls(length));
  const longest = Math.max(...lengths);
  const variants = chains.map((calls, index) => {
    // The same number of calls derived per sample for every length.
    const passes = Math.max(1, Math.round((8 * longest) / calls.length));
    planFromToolCalls(calls);
    return [
      String(index),
      async () => {
        await settle();
        const elapsed = timedSync(() => {
          for (let pass = 0; pass < passes; pass += 1) planFromToolCalls(calls);
        });
        return elapsed / passes;
      },
    ] as const;
  });
  const samples = await interleave(repetitions, variants);
  const shortest = samples['0'] ?? [];
  return lengths.map((length, index) => {
    const milliseconds = samples[String(index)] ?? [];
    const line: ResultLine = {
      benchmark: `plan derivation, ${formatNumber(length)}-call chain`,
      variant: '`planFromToolCalls`',
      value: summarize(milliseconds),
      unit: 'ms',
      details: { microsecondsPerCall: (summarize(milliseconds).median * 1000) / length },
      note: `${formatNumber((summarize(milliseconds).median * 1000) / length)} µs/call`,
    };
    if (index > 0) {
      line.ratio = {
        to: `the ${formatNumber(lengths[0] as number)}-call chain (linear: ${formatNumber(length / (lengths[0] as number))})`,
        value: pairedRatios(milliseconds, shortest),
      };
    }
    return line;
  });
}
