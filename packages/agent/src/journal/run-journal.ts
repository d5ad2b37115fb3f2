import { createHash } from 'node:crypto';
import { canonicalJson, ToolResultSchema } from '@mtpx/protocol';
import { z } from 'zod';
import { AgentError } from '../agent-error';
import { JournaledApprovalSchema, JournaledDecisionSchema } from '../approvals/pending-approval';
import { RunRecordSchema, SessionSchema } from '../session/session';
import type { JournalWriteOptions, RunLease } from './run-lease';

const isoDate = z.iso.datetime({ offset: true });

/**
 * A run as its journal keeps it: what it was asked, how it runs, and the conversation as
 * it stood after the last model turn. With the results of its finished calls (kept apart,
 * as each finishes) it is everything `agent.resume` needs to go on in another process.
 * @internal
 */
export const JournaledRunSchema = z.object({
  run_id: z.string().min(1),
  /**
   * `running` until the run ends; `waiting` while it waits for approvals decided outside
   * it (`pending_approvals`). Only a `running` or `waiting` run is resumed.
   */
  status: z.enum(['running', 'waiting', 'finished', 'cancelled', 'failed']),
  input: z.string(),
  session_id: z.string().optional(),
  user_id: z.string().optional(),
  /** The session as the run read it: its `version` is what the final save compares against. */
  session: SessionSchema.optional(),
  /** The run's limits and mode (`tool_call_limit: null` for no limit). */
  settings: z.object({
    streaming: z.boolean(),
    /** `'safe'`, `'all'` or `false` (`true`, from journals written before the modes, is `'safe'`). */
    eager_dispatch: z.union([z.enum(['safe', 'all']), z.boolean()]),
    max_rounds: z.number().int().positive(),
    tool_call_limit: z.number().int().nonnegative().nullable(),
  }),
  /**
   * The conversation without the system message: the session's messages, the input, and
   * every turn so far. While running it ends with the last model turn; its calls' results
   * are the journaled calls.
   */
  messages: SessionSchema.shape.messages,
  /** Model turns taken. */
  rounds: z.number().int().nonnegative(),
  usage: RunRecordSchema.shape.usage,
  /** Results of the calls of the rounds before the last turn (all of them once ended). */
  tool_results: z.array(ToolResultSchema),
  final_text: z.string(),
  stop_reason: RunRecordSchema.shape.stop_reason,
  /** The session's record of the run, set when it ended (the session is saved after it). */
  record: RunRecordSchema.optional(),
  started_at: isoDate,
  updated_at: isoDate,
  /** The calls of the last turn that wait for a person's decision (a `waiting` run). */
  pending_approvals: z.array(JournaledApprovalSchema).optional(),
  /**
   * Decisions taken by `resume`, by approval id: each acts once (a second decision for the
   * same id is refused), and a resume after a crash applies them again.
   */
  approval_decisions: z.array(JournaledDecisionSchema).optional(),
  /** Successful saves so far (absent = 0: never stored), as for sessions. */
  version: z.number().int().nonnegative().optional(),
});

/** A run as its journal keeps it. */
export type JournaledRun = z.infer<typeof JournaledRunSchema>;

/**
 * One finished call of a run: its key, and its result.
 * @internal
 */
export const JournaledCallSchema = z.object({
  call_id: z.string().min(1),
  /** {@link journalArgumentsHash} of the call as it was handed to the executor. */
  arguments_hash: z.string().min(1),
  result: ToolResultSchema,
});

/** One finished call of a run. */
export type JournaledCall = z.infer<typeof JournaledCallSchema>;

/**
 * Where runs are journaled, so that a run whose process died can be resumed elsewhere
 * (`agent.resume(runId)`): the run's state after each model turn, and every call's result
 * as it finishes, keyed by (run id, call id, arguments hash). A run has one owner at a
 * time: a {@link RunLease} with an expiry and a fencing token, which every write of the
 * owner carries (`leaseToken`), so a write from an owner that lost the run is refused
 * with `run_lease_lost`. Implementations: {@link InMemoryRunJournal}; `PostgresRunJournal`
 * in `@mtpx/postgres`.
 */
export interface RunJournal {
  /** The run, or `undefined` when none has this id. */
  get(runId: string): Promise<JournaledRun | undefined>;
  /**
   * Creates or replaces the run, compare-and-swap as `SessionStore.save`: writes only if
   * the stored version equals `run.version ?? 0` (no stored run when that is 0), storing it
   * with `version + 1`; otherwise rejects with `run_journal_conflict`. Use
   * {@link checkJournalVersion}. With `leaseToken`, rejects with `run_lease_lost` (a
   * {@link @mtpx/agent!RunLeaseError | RunLeaseError}) unless it is the run's current lease token.
   */
  save(run: JournaledRun, options?: JournalWriteOptions): Promise<void>;
  /**
   * Records one finished call. Recording a key again keeps the first result, unless that
   * one is `retryable` (the call failed in a way a resumed run retries: see
   * {@link replacesJournaledResult}): then the new result replaces it. With `leaseToken`,
   * fenced as {@link RunJournal.save}.
   */
  recordCall(runId: string, call: JournaledCall, options?: JournalWriteOptions): Promise<void>;
  /** Every finished call of the run (`[]` when none). */
  calls(runId: string): Promise<JournaledCall[]>;
  /** Forgets the run, its calls and its lease; false when there was no run. */
  delete(runId: string): Promise<boolean>;
  /**
   * Takes the run's lease for `holder` for `ttlMs`: granted when the run has no lease, its
   * lease expired (or was released), or `holder` already holds it (a retried acquisition:
   * same token). A new holder gets the previous token + 1 (1 for the first). Rejects with
   * `run_lease_held` (a {@link @mtpx/agent!RunLeaseError | RunLeaseError} naming the holder and the expiry) when
   * another holder's lease is live. The run itself need not exist yet.
   */
  acquireLease(runId: string, holder: string, ttlMs: number): Promise<RunLease>;
  /**
   * Extends the lease whose token is `token` to `ttlMs` from now (even if it expired, as
   * long as nobody took the run since); rejects with `run_lease_lost` otherwise.
   */
  renewLease(runId: string, token: number, ttlMs: number): Promise<RunLease>;
  /** Ends the lease whose token is `token` now (the next holder need not wait); no-op for another token. */
  releaseLease(runId: string, token: number): Promise<void>;
  /** The run's lease as it stands (expired ones too), or `undefined` when it never had one. */
  getLease(runId: string): Promise<RunLease | undefined>;
}

/** The rule every {@link RunJournal.save} applies: the stored version must be the one `run` was read at. */
export function checkJournalVersion(stored: JournaledRun | undefined, run: JournaledRun): void {
  const expected = run.version ?? 0;
  const found = stored === undefined ? 0 : (stored.version ?? 0);
  if (found === expected) return;
  throw new AgentError({
    code: 'run_journal_conflict',
    message:
      expected === 0
        ? `Run "${run.run_id}" is already in the journal: resume it (agent.resume) or start a run with a new id.`
        : `Run "${run.run_id}" was journaled by another process since it was read (stored version ${found}, this copy ${expected}): another process resumed it.`,
  });
}

/**
 * The hash that keys a call in the journal, with its run id and call id: hex SHA-256 of
 * the canonical JSON of `[name, arguments]`, the call as the model wrote it (its `$ref`s
 * unresolved, aliases rewritten). `undefined` for a call that is not JSON.
 */
export function journalArgumentsHash(name: unknown, args: unknown): string | undefined {
  const text = canonicalJson([name ?? null, args ?? null]);
  return text === undefined ? undefined : createHash('sha256').update(text).digest('hex');
}

/**
 * Parses stored data as a journaled run; a `run_journal_failed` error when it is not one.
 * @internal
 */
export function parseJournaledRun(data: unknown, where: string): JournaledRun {
  const parsed = JournaledRunSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw journalFailed(
    `${where} is not a journaled run: ${parsed.error.issues[0]?.message ?? 'unknown problem'}.`,
    parsed.error,
  );
}

/**
 * Parses stored data as a journaled call.
 * @internal
 */
export function parseJournaledCall(data: unknown, where: string): JournaledCall {
  const parsed = JournaledCallSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw journalFailed(
    `${where} is not a journaled call: ${parsed.error.issues[0]?.message ?? 'unknown problem'}.`,
    parsed.error,
  );
}

/**
 * Whether a call's result, recorded again under the same key, replaces the `stored` one.
 * The first result of a call stays (a resumed run answers the call with it, so an effect is
 * never applied twice), except a `retryable` failure: a remote job lost with Redis's data,
 * a deadline passed. A resumed run runs that call again, and its new result replaces it.
 * Every journal applies this rule (`PostgresRunJournal` in its `ON CONFLICT` clause).
 */
export function replacesJournaledResult(stored: JournaledCall['result']): boolean {
  return stored.retryable === true;
}

/** The error for a journal that cannot read or write (`run_journal_failed`). */
export function journalFailed(message: string, cause?: unknown): AgentError {
  return new AgentError({ code: 'run_journal_failed', message, cause });
}
