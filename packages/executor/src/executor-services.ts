import type { ResultCache } from './cache/result-cache';
import type { ArgumentValidator } from './call/argument-validator';
import type { ResolvedRetryBackoff } from './call/retry-backoff';
import type { ResolvedValueLimits } from './call/value-limits';
import type { ToolConcurrency } from './concurrency/tool-concurrency';
import type { ApproveHandler, ToolPolicy } from './policy/risk-policy';
import type { ToolRegistry } from './tools/tool-registry';

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
  /** Per-tool and per-toolkit caps, shared by every execution of the executor. */
  readonly toolConcurrency: ToolConcurrency | undefined;
  /** Default time limit of one attempt, for tools without `timeoutMs`. */
  readonly timeoutMs: number | undefined;
  readonly retryBackoff: ResolvedRetryBackoff;
  /** Bounds on arguments and outputs. */
  readonly limits: ResolvedValueLimits;
}
