import { createHash } from 'node:crypto';
import { MplEngine, semanticHash } from '@mtpx/mpl';
import type { JsonObject } from '@mtpx/protocol';
import { blake3 } from '@noble/hashes/blake3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { BenchConfig } from '../config';
import { settle } from '../support/clock';
import { formatNumber } from '../support/format';
import type { ResultLine, RowResult } from '../support/results';
import { interleave, pairedRatios, summarize } from '../support/stats';
import { largeTaskPlan, loadTaskPlan, taskPlanStype } from '../support/task-plan';
import { operationsPerSecond } from '../support/throughput';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const encoder = new TextEncoder();

type Operation = () => unknown;

/** Operations per second of two operations, interleaved, and the paired throughput ratio. */
async function compare(
  sampleMs: number,
  repetitions: number,
  ours: Operation,
  baseline: Operation,
): Promise<{ ours: number[]; baseline: number[] }> {
  // Warm both up (JIT) before anything is timed.
  operationsPerSecond(ours, sampleMs);
  operationsPerSecond(baseline, sampleMs);
  const measure = (operation: Operation) => async () => {
    await settle();
    return operationsPerSecond(operation, sampleMs);
  };
  return interleave(repetitions, [
    ['ours', measure(ours)],
    ['baseline', measure(baseline)],
  ] as const);
}

function hashLines(label: string, payload: JsonObject, config: BenchConfig): Promise<ResultLine[]> {
  const { sampleMs, repetitions } = config.hashing;
  const bytes = Buffer.byteLength(JSON.stringify(payload));
  const benchmark = `semantic hash, ${label} (${formatNumber(bytes)} bytes of JSON)`;
  const algorithms = [
    {
      name: 'sha256',
      ours: () => semanticHash(payload, { algorithm: 'sha256' }),
      baseline: () => createHash('sha256').update(JSON.stringify(payload)).digest('hex'),
    },
    {
      name: 'b3',
      ours: () => semanticHash(payload, { algorithm: 'b3' }),
      baseline: () => bytesToHex(blake3(encoder.encode(JSON.stringify(payload)))),
    },
  ];
  return algorithms.reduce<Promise<ResultLine[]>>(async (linesSoFar, algorithm) => {
    const lines = await linesSoFar;
    const samples = await compare(sampleMs, repetitions, algorithm.ours, algorithm.baseline);
    lines.push({
      benchmark,
      variant: `\`semanticHash\` (${algorithm.name})`,
      value: summarize(samples.ours),
      unit: 'hashes/s',
      ratio: {
        to: `\`${algorithm.name}(JSON.stringify(…))\``,
        value: pairedRatios(samples.ours, samples.baseline),
      },
      details: { baselineOpsPerSecond: summarize(samples.baseline).median, bytes },
      note: `\`${algorithm.name}(JSON.stringify(…))\`: ${formatNumber(summarize(samples.baseline).median)} /s`,
    });
    return lines;
  }, Promise.resolve([]));
}

/**
 * Row 6: semantic hashing (canonical JSON, then SHA-256 or BLAKE3) against hashing
 * `JSON.stringify` output directly, and TaskPlan validations per second against a bare
 * Ajv validator of the same schema.
 */
export async function hashingRow(config: BenchConfig): Promise<RowResult> {
  const { sampleMs, repetitions } = config.hashing;
  const { schema, example } = await loadTaskPlan();
  const lines: ResultLine[] = [
    ...(await hashLines('tutorial TaskPlan', example, config)),
    ...(await hashLines('200-step TaskPlan', largeTaskPlan(200), config)),
  ];

  const engine = await MplEngine.create();
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const bareValidate = ajv.compile(schema);
  const checks = [
    engine.registry.validateMessage(taskPlanStype, example).valid,
    engine.inspect(taskPlanStype, example).accepted,
    bareValidate(example),
  ];
  if (checks.includes(false))
    throw new Error('hashing row: the tutorial TaskPlan did not validate');

  const variants = [
    {
      variant: '`registry.validateMessage` (schema + `args_stype`)',
      operation: () => engine.registry.validateMessage(taskPlanStype, example),
    },
    {
      variant: '`engine.inspect` (validation, CEL assertions, QoM, sem_hash)',
      operation: () => engine.inspect(taskPlanStype, example),
    },
  ];
  for (const { variant, operation } of variants) {
    const samples = await compare(sampleMs, repetitions, operation, () => bareValidate(example));
    lines.push({
      benchmark: 'TaskPlan validation (tutorial plan)',
      variant,
      value: summarize(samples.ours),
      unit: 'validations/s',
      ratio: { to: 'bare Ajv', value: pairedRatios(samples.ours, samples.baseline) },
      details: { baselineOpsPerSecond: summarize(samples.baseline).median },
      note: `bare Ajv 2020 of the same schema: ${formatNumber(summarize(samples.baseline).median)} /s`,
    });
  }
  return {
    row: 6,
    title: 'Hashing and validation',
    measures:
      'Semantic hash throughput against hashing JSON.stringify output; TaskPlan validations per second against bare Ajv.',
    repetitions,
    lines,
  };
}
