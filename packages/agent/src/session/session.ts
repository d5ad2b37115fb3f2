import {
  AssistantMessageSchema,
  AssistantToolCallSchema,
  SystemMessageSchema,
  ToolMessageSchema,
  ToolResultSchema,
  UserMessageSchema,
} from '@mtpx/protocol';
import { z } from 'zod';
import { AgentError } from '../agent-error';

const UsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  totalTokens: z.number(),
  cachedInputTokens: z.number().optional(),
  reasoningTokens: z.number().optional(),
  cacheReadTokens: z.number().optional(),
  cacheWriteTokens: z.number().optional(),
  cacheWrite5mTokens: z.number().optional(),
  cacheWrite1hTokens: z.number().optional(),
  cacheHitTokens: z.number().optional(),
  cacheMissTokens: z.number().optional(),
});

/**
 * A message as stored: the protocol's message, except that a tool call's id and name may
 * be empty. A model's malformed call is kept in the conversation (answered with an error),
 * and must never make its session unreadable. An assistant message keeps its
 * `provider_parts` (thinking blocks, reasoning fields, server tool blocks), so a resumed
 * session replays them.
 */
const StoredMessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema.extend({
    tool_calls: z
      .array(AssistantToolCallSchema.extend({ id: z.string(), name: z.string() }))
      .optional(),
  }),
  ToolMessageSchema,
]);

/**
 * One run of a session, as recorded when it ended.
 * @internal
 */
export const RunRecordSchema = z.object({
  run_id: z.string(),
  /** The user's input. */
  input: z.string(),
  /** `finished` (with a `stop_reason` other than cancelled), `cancelled`, or `failed`. */
  status: z.enum(['finished', 'cancelled', 'failed']),
  stop_reason: z
    .enum(['final', 'max_rounds', 'tool_call_limit', 'cancelled', 'refusal', 'awaiting_approval'])
    .optional(),
  /** What failed, for a failed run. */
  error: z.string().optional(),
  final_text: z.string(),
  rounds: z.number().int().nonnegative(),
  usage: UsageSchema,
  /** Every call's result in the run; `$ref`s of later runs may name them. */
  tool_results: z.array(ToolResultSchema),
  started_at: z.iso.datetime({ offset: true }),
  finished_at: z.iso.datetime({ offset: true }),
});

/**
 * A conversation that outlives one run: its messages (system instructions excluded: they
 * belong to the agent) and a record of each run. `user_id` is its owner; a session is
 * read only with the owner's id.
 * @internal
 */
export const SessionSchema = z.object({
  session_id: z.string().min(1),
  /** The owner (`null` for a session made without a user id). */
  user_id: z.string().nullable(),
  messages: z.array(StoredMessageSchema),
  runs: z.array(RunRecordSchema),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  /**
   * How many times it has been saved (absent = 0: never stored). A store writes a session
   * only over the version it was read at, storing it as `version + 1`; see
   * {@link checkSessionVersion}.
   */
  version: z.number().int().nonnegative().optional(),
});

/** One run of a session. */
export type RunRecord = z.infer<typeof RunRecordSchema>;
/** A stored conversation: messages and runs, with its owner. */
export type Session = z.infer<typeof SessionSchema>;

/** Who is asking for a session. */
export interface SessionAccess {
  /** Must equal the session's `user_id` (leave it out only for sessions without an owner). */
  userId?: string;
}

/**
 * Where sessions are kept. `get` and `delete` must refuse (with an `AgentError` whose
 * code is `session_access_denied`) a `userId` other than the session's owner: use
 * {@link checkSessionOwner}. Implementations: {@link InMemorySessionStore},
 * {@link JsonFileSessionStore}; any database fits behind the same three methods.
 */
export interface SessionStore {
  /** The session, or `undefined` when none has this id. */
  get(sessionId: string, access?: SessionAccess): Promise<Session | undefined>;
  /**
   * Creates or replaces the whole session, with compare-and-swap semantics: it writes only
   * when the stored copy's version equals `session.version ?? 0` (no stored copy when that
   * is 0), storing it as `version + 1`; otherwise it rejects with `session_conflict`. It
   * refuses `session_access_denied` when the stored copy has another owner. Use
   * {@link checkSessionVersion} so every store applies the same rule, atomically with the write.
   */
  save(session: Session): Promise<void>;
  /** Deletes the session; false when there was none. */
  delete(sessionId: string, access?: SessionAccess): Promise<boolean>;
}

/** Throws `session_access_denied` unless `access.userId` is the session's owner. */
export function checkSessionOwner(session: Session, access: SessionAccess | undefined): void {
  const userId = access?.userId ?? null;
  if (session.user_id === userId) return;
  throw new AgentError({
    code: 'session_access_denied',
    message:
      userId === null
        ? `Session "${session.session_id}" belongs to a user; give that user's id to read it.`
        : `Session "${session.session_id}" belongs to another user; user "${userId}" may not read it.`,
  });
}

/**
 * The rule every {@link SessionStore.save} applies, with `stored` read under the same lock
 * (or transaction) as the write: throws `session_conflict` when the stored copy is not the
 * version `session` was read at — another run or process saved it meanwhile, or it was
 * created or deleted since — and `session_access_denied` when it belongs to another user.
 * A stored copy without a version (written before versions existed) counts as version 1.
 *
 * @example
 * ```ts source="./session.examples.ts#checkSessionVersion"
 * async save(session: Session) {
 *   await withLock(session.session_id, async () => {
 *     checkSessionVersion(await this.read(session.session_id), session);
 *     await this.write({ ...session, version: (session.version ?? 0) + 1 });
 *   });
 * }
 * ```
 */
export function checkSessionVersion(stored: Session | undefined, session: Session): void {
  const expected = session.version ?? 0;
  const actual = stored === undefined ? 0 : (stored.version ?? 1);
  if (actual !== expected) {
    const what =
      stored === undefined
        ? 'it was deleted meanwhile'
        : expected === 0
          ? 'it was created meanwhile by another run or process'
          : `it was saved meanwhile by another run or process (stored version ${actual}, this copy was read at version ${expected})`;
    throw new AgentError({
      code: 'session_conflict',
      message: `Session "${session.session_id}" was not saved: ${what}. Load it again and retry.`,
    });
  }
  if (stored !== undefined && stored.user_id !== session.user_id) {
    throw new AgentError({
      code: 'session_access_denied',
      message: `Session "${session.session_id}" belongs to another user; it was not saved.`,
    });
  }
}

/** The version a stored copy counts as (absent on copies written before versions: 1). */
export function storedVersion(stored: Session): number {
  return stored.version ?? 1;
}

/** Checks a session id given by a caller. */
export function checkSessionId(sessionId: unknown): asserts sessionId is string {
  if (typeof sessionId !== 'string' || sessionId === '') {
    throw new AgentError({
      code: 'invalid_option',
      message: `A session id must be a non-empty string, got ${JSON.stringify(sessionId)}.`,
    });
  }
}

/** A new, empty session. */
export function newSession(sessionId: string, userId: string | undefined): Session {
  const now = new Date().toISOString();
  return {
    session_id: sessionId,
    user_id: userId ?? null,
    messages: [],
    runs: [],
    created_at: now,
    updated_at: now,
  };
}

/** Parses stored data as a session; a clear `invalid_session` error when it is not one. */
export function parseSession(data: unknown, where: string): Session {
  const parsed = SessionSchema.safeParse(data);
  if (parsed.success) {
    // A stored copy was saved at least once.
    return { ...parsed.data, version: storedVersion(parsed.data) };
  }
  const first = parsed.error.issues[0];
  const path = first?.path.length ? ` at "${first.path.join('.')}"` : '';
  throw new AgentError({
    code: 'invalid_session',
    message: `${where} is not a valid session${path}: ${first?.message ?? 'unknown problem'}.`,
    cause: parsed.error,
  });
}
