import { AgentError } from '../agent-error';

/**
 * Who owns a run, until when: one live lease per run at a time. Taking a run (`run()` with
 * a journal, or `agent.resume`) acquires it; the owner renews it while the run lives and
 * releases it when the run ends. `token` is the fencing token: it grows by one each time
 * another holder takes the run, and every journal write of the owner carries it, so a
 * write from an owner that lost the run is refused (`run_lease_lost`).
 */
export interface RunLease {
  runId: string;
  /** Who holds it (the agent's `lease.holder`, then a suffix unique to this acquisition). */
  holder: string;
  /** The fencing token (1 for a run's first owner; +1 for each new owner). */
  token: number;
  /** When the lease runs out unless renewed (ISO 8601, by the journal's clock). */
  expiresAt: string;
  /** Milliseconds from the journal's "now" to `expiresAt`, when it was read (≤ 0: expired). */
  expiresInMs: number;
}

/** The fencing of one journal write: the writer's lease token. */
export interface JournalWriteOptions {
  /**
   * The writer's {@link RunLease.token}: the write is refused with `run_lease_lost` unless
   * it is the run's current token. Without it the write is not fenced (writes made
   * outside a run: tests, tools, migrations); an agent's runs always pass it.
   */
  leaseToken?: number;
}

/**
 * The error of a lease that is not this process's: `run_lease_held` (a live lease
 * stopped `resume` or `run`; `holder` and `expiresAt` name it) or `run_lease_lost` (the
 * run was taken over by another holder, or this one's lease expired before it could renew
 * it: the run stopped, its in-flight calls were aborted, and it stays resumable).
 *
 * @example
 * ```ts source="./run-lease.examples.ts#RunLeaseError"
 * const agent = createAgent({
 *   provider,
 *   tools,
 *   journal,
 *   lease: { ttlMs: 30_000, holder: 'worker-7' },
 * });
 * try {
 *   await agent.resume('run_42', { waitForLeaseMs: 5_000 });
 * } catch (error) {
 *   if (RunLeaseError.isLeaseError(error) && error.code === 'run_lease_held') {
 *     console.log(`run_42 belongs to ${error.holder} until ${error.expiresAt}`);
 *   }
 * }
 * ```
 */
export class RunLeaseError extends AgentError {
  /** The run. */
  readonly runId: string;
  /** Who holds the lease now, when known. */
  readonly holder: string | undefined;
  /** When that lease expires (ISO 8601), when known. */
  readonly expiresAt: string | undefined;
  /** Milliseconds until it expires (by the journal's clock), when known. */
  readonly expiresInMs: number | undefined;

  constructor(options: {
    code: 'run_lease_held' | 'run_lease_lost';
    runId: string;
    message: string;
    lease?: RunLease | undefined;
    cause?: unknown;
  }) {
    super({ code: options.code, message: options.message, cause: options.cause });
    this.name = 'RunLeaseError';
    this.runId = options.runId;
    this.holder = options.lease?.holder;
    this.expiresAt = options.lease?.expiresAt;
    this.expiresInMs = options.lease?.expiresInMs;
  }

  /** True for a `run_lease_held` or `run_lease_lost` error (survives duplicate package copies). */
  static isLeaseError(error: unknown): error is RunLeaseError {
    return (
      AgentError.isInstance(error) &&
      (error.code === 'run_lease_held' || error.code === 'run_lease_lost')
    );
  }
}

/** The error for a live lease held by another holder (journals use it in `acquireLease`). */
export function leaseHeld(runId: string, lease: RunLease): RunLeaseError {
  return new RunLeaseError({
    code: 'run_lease_held',
    runId,
    lease,
    message: `Run "${runId}" is owned by "${lease.holder}" until ${lease.expiresAt} (in ${Math.max(0, Math.ceil(lease.expiresInMs))} ms): resume it after that, or pass \`waitForLeaseMs\` to wait.`,
  });
}

/** The error for a token that is not the run's current one (journals use it in writes and `renewLease`). */
export function leaseLost(
  runId: string,
  token: number,
  current: RunLease | undefined,
): RunLeaseError {
  return new RunLeaseError({
    code: 'run_lease_lost',
    runId,
    lease: current,
    message:
      current === undefined
        ? `Run "${runId}" has no lease any more (token ${token}): this process no longer owns the run.`
        : `Run "${runId}" was taken over by "${current.holder}" (token ${current.token}; this process held ${token}): this process no longer owns the run.`,
  });
}

/** The checks every journal applies to a lease token; `current` is the stored lease. */
export function checkLeaseToken(
  runId: string,
  current: RunLease | undefined,
  options: JournalWriteOptions | undefined,
): void {
  const token = options?.leaseToken;
  if (token === undefined) return;
  if (current === undefined || current.token !== token) throw leaseLost(runId, token, current);
}

/** How long a lease lasts unless renewed, by default: 30 seconds (renewed every 10). */
export const DEFAULT_LEASE_TTL_MS = 30_000;
