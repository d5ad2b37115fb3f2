import { MtpxError } from './errors';

/** What a plan validation issue is about. */
export type PlanIssueCode =
  /** The plan, a batch or a batch's `calls` is not of the right type. */
  | 'invalid_plan_shape'
  /** A call is not an object, or its `arguments` / `depends_on` have the wrong type. */
  | 'invalid_call'
  /** A call's `id` is missing, empty or not a string. */
  | 'empty_id'
  /** A call's `name` is missing, empty or not a string. */
  | 'empty_name'
  /** A batch's `mode` is neither `parallel` nor `sequential`. */
  | 'unknown_batch_mode'
  /** Two calls share an id (or a call reuses an id from an earlier round). */
  | 'duplicate_id'
  /** `depends_on` or a `$ref` names a call that is neither in the plan nor in history. */
  | 'missing_dependency'
  /** Calls depend on each other in a loop. */
  | 'cycle'
  /** A `$ref` or `depends_on` target exists but does not run earlier. */
  | 'ref_not_earlier'
  /** A `$ref` target is missing from `depends_on` (strict mode only). */
  | 'undeclared_ref'
  /** An object shaped like a reference has an unusable `$ref` or `$path`. */
  | 'invalid_reference';

/** One problem found in a plan. */
export interface PlanIssue {
  code: PlanIssueCode;
  /** The ids of the calls involved; empty when the problem has no call id to name. */
  callIds: string[];
  /** What is wrong and how to fix it, written for the model that produced the calls. */
  message: string;
  /** Where in the input the problem sits (`batches[1].calls[0]`, `calls[3]`). */
  location?: string;
}

const markerName = 'mtpx.error.PlanValidationError';
const marker = Symbol.for(markerName);

/**
 * A plan that breaks a validation rule. `issues` lists every problem found, each with
 * the call ids it concerns, so a runtime can answer each call with its own error.
 */
export class PlanValidationError extends MtpxError<'invalid_plan'> {
  protected readonly [marker] = true;

  /** Every problem found (never empty). */
  readonly issues: PlanIssue[];

  constructor({ issues }: { issues: PlanIssue[] }) {
    const count = issues.length === 1 ? '1 problem' : `${issues.length} problems`;
    super({
      code: 'invalid_plan',
      message: `Invalid execution plan (${count}): ${issues.map((issue) => issue.message).join(' ')}`,
    });
    this.name = 'PlanValidationError';
    this.issues = issues;
  }

  static override isInstance(error: unknown): error is PlanValidationError {
    return MtpxError.hasMarker(error, markerName);
  }
}
