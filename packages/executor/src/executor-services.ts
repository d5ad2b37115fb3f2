import type { ArgumentValidator } from './argument-validator';
import type { ResultCache } from './result-cache';
import type { ResolvedRetryBackoff } from './retry-backoff';
import type { ApproveHandler, ToolPolicy } from './risk-policy';
import type { ToolRegistry } from './tool-registry';
import type { ResolvedValueLimits } from './value-limits';

/** What every run of one executor shares (internal). */
export interface ExecutorServices {
  readonly registry: ToolRegistry;
  readonly validator: ArgumentValidator;
  readonly policy: ToolPolicy;
  readonly approve: ApproveHandler | undefined;
  readonly cache: ResultCache | undefined;
  /** Run identical calls of one run once. */
  readonly dedupe: boolean;
  /** Most calls in flight at once (`Infinity` for no cap). */
  readonly concurrency: number;
  /** Default time limit of one attempt, for tools without `timeout_ms`. */
  readonly timeoutMs: number | undefined;
  readonly retryBackoff: ResolvedRetryBackoff;
  /** Bounds on arguments and outputs. */
  readonly limits: ResolvedValueLimits;
}
