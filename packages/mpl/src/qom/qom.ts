import { z } from 'zod';
import type { AssertionResult } from './assertions';
import { QOM_METRICS, type QomMetricName, type QomProfile } from './qom-profiles';

/** Scores from outside judgement (a grader, a verifier), each from 0 to 1, by wire name. */
export const QomScoresSchema = z
  .object({
    groundedness: z.number().min(0).max(1),
    determinism_jitter: z.number().min(0).max(1),
    ontology_adherence: z.number().min(0).max(1),
    tool_outcome_correctness: z.number().min(0).max(1),
  })
  .partial()
  .strict();

/** Caller-supplied scores for the metrics MPL cannot measure by itself. */
export type QomScores = z.infer<typeof QomScoresSchema>;

/** A metric that fell short of its threshold (`actual` is `null` when no score was supplied). */
export interface QomFailure {
  metric: QomMetricName;
  actual: number | null;
  threshold: number;
  message: string;
}

/** The QoM verdict on one message, in wire form. */
export interface QomReport {
  /** The profile it was judged by. */
  profile: string;
  passed: boolean;
  /** Every measured or supplied metric. */
  metrics: Partial<Record<QomMetricName, number>>;
  /** The metrics that failed, in metric order (empty when `passed`). */
  failures: QomFailure[];
  /** The assertions that failed, with why (empty when all passed). */
  failed_assertions: AssertionResult[];
  /** Metrics the profile samples (`sample_rate` < 1) that this message was not sampled for. */
  skipped?: QomMetricName[];
  /** The profile the message failed first, when `retry_policy.degrade_to` judged it again. */
  degraded_from?: string;
}

/** What {@link evaluateQom} judges. */
export interface QomMeasurement {
  /** 1 when the payload (and its args) conform to their schemas, else 0. */
  schema_fidelity: number;
  /** Assertions passed ÷ assertions (1 when there are none). */
  instruction_compliance: number;
  /** The failed assertions, carried into the report. */
  failedAssertions?: AssertionResult[];
  scores?: QomScores;
  /**
   * Where this message falls in [0, 1): a metric whose `sample_rate` is at most this is
   * not judged for it (default 0: every metric judged). The engine derives it from the
   * message's semantic hash, so a message is sampled the same way each time.
   */
  samplePoint?: number;
}

// As in the reference, instruction compliance and tool outcome fail when a profile needs
// them and no score exists; groundedness, determinism and ontology are judged only when given.
const requiredWhenAbsent: ReadonlySet<QomMetricName> = new Set([
  'schema_fidelity',
  'instruction_compliance',
  'tool_outcome_correctness',
]);

/**
 * Judges a message's metrics against a profile: each threshold the profile sets must be
 * met. Reports every metric, pass or fail, and each failing metric with its threshold.
 *
 * @example
 * ```ts source="./qom.examples.ts#evaluateQom"
 * const profile = BUILTIN_QOM_PROFILES['qom-strict-argcheck'];
 * if (profile)
 *   evaluateQom(profile, { schema_fidelity: 1, instruction_compliance: 0.5 }).failures[0]?.metric;
 * // 'instruction_compliance'
 * ```
 */
export function evaluateQom(profile: QomProfile, measurement: QomMeasurement): QomReport {
  const values: Partial<Record<QomMetricName, number>> = {
    schema_fidelity: measurement.schema_fidelity,
    instruction_compliance: measurement.instruction_compliance,
  };
  if (measurement.scores) Object.assign(values, measurement.scores);
  const failures: QomFailure[] = [];
  const skipped: QomMetricName[] = [];
  const samplePoint = measurement.samplePoint ?? 0;
  for (const metric of QOM_METRICS) {
    const threshold = profile.metrics[metric];
    if (!threshold) continue;
    if (threshold.sample_rate !== undefined && samplePoint >= threshold.sample_rate) {
      skipped.push(metric);
      continue;
    }
    const actual = values[metric];
    if (actual === undefined) {
      if (requiredWhenAbsent.has(metric) && threshold.min > 0)
        failures.push({
          metric,
          actual: null,
          threshold: threshold.min,
          message: `${metric} is required by ${profile.name} (at least ${threshold.min}) and no score was supplied`,
        });
      continue;
    }
    if (actual < threshold.min)
      failures.push({
        metric,
        actual,
        threshold: threshold.min,
        message: `${metric} is ${roundForMessage(actual)}, below the ${threshold.min} that ${profile.name} requires`,
      });
  }
  const report: QomReport = {
    profile: profile.name,
    passed: failures.length === 0,
    metrics: values,
    failures,
    failed_assertions: measurement.failedAssertions ?? [],
  };
  if (skipped.length > 0) report.skipped = skipped;
  return report;
}

function roundForMessage(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
