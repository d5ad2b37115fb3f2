import type { JsonValue } from '@mtpx/protocol';
import type { z } from 'zod';
import type { InputRequests } from './input-requests';
import type { ElicitationValue, InputResponse, InputResponseView } from './input-responses';

/** An input round that finished: `value` is the tool's output (or the prompt's messages, the resource's contents). */
export interface CompleteInputRound<TValue> {
  type: 'complete';
  value: TValue;
}

/**
 * An input round that needs input from the client first. `requests` are sent to the client (as
 * an `input_required` result to 2026-07-28 clients, as real server-to-client requests to
 * 2025-era clients); `state` comes back, verified, in the next round's `context.requestState`.
 */
export interface InputRequiredRound {
  type: 'input_required';
  requests: InputRequests;
  state?: JsonValue;
}

/** What an input-round hook returns. */
export type InputRoundResult<TValue> = CompleteInputRound<TValue> | InputRequiredRound;

/**
 * Finishes the call with `value`.
 *
 * @example
 * ```ts source="../mcp.examples.ts#complete"
 * return complete(`Hello, ${name}!`);
 * ```
 */
export function complete<TValue>(value: TValue): CompleteInputRound<TValue> {
  return { type: 'complete', value };
}

/**
 * Asks the client for input before the call can go on. Give at least one request or a
 * state (a state alone asks the client to retry, e.g. to shed load). The adapter signs
 * `state` and binds it to this call, so a hook can trust what comes back.
 *
 * @example
 * ```ts source="../mcp.examples.ts#inputRequired"
 * return inputRequired({ date: formElicitation('Which date?', dateSchema) }, { step: 'date' });
 * ```
 */
export function inputRequired(requests: InputRequests, state?: JsonValue): InputRequiredRound {
  return state === undefined
    ? { type: 'input_required', requests }
    : { type: 'input_required', requests, state };
}

/** What the client declared it can do (`elicitation`, `sampling`, `roots`, …). */
export type ClientCapabilities = Record<string, unknown> & {
  elicitation?: { form?: object; url?: object };
  sampling?: object;
  roots?: object;
};

/** Progress to report: `progress` must rise with every report, across rounds too. */
export interface ProgressOptions {
  total?: number;
  message?: string;
}

/** The syslog severities MCP logging uses, least severe first. */
export type McpLogLevel =
  | 'debug'
  | 'info'
  | 'notice'
  | 'warning'
  | 'error'
  | 'critical'
  | 'alert'
  | 'emergency';

/** What every input-round hook is given. */
export interface InputRoundContext {
  /** The capabilities the client declared (`{}` when it declared none). */
  readonly clientCapabilities: ClientCapabilities;
  /**
   * The validated answers to the previous round's requests, by key. Complete: a round
   * only runs once every request of the previous round has an answer.
   */
  readonly inputResponses: Readonly<Record<string, InputResponse>>;
  /** The state the previous round returned (verified), or `undefined` on the first round. */
  readonly requestState: JsonValue | undefined;
  /** 1 on the first input round, then one more for every input round that asked for input. */
  readonly inputRound: number;
  /** @deprecated Use {@link InputRoundContext.inputRound}; removed in the next minor. */
  readonly round: number;
  /** The protocol era of the client: `modern` (2026-07-28) or `legacy` (2025). */
  readonly era: 'modern' | 'legacy';
  /** Fires when the client cancels the call or disconnects. */
  readonly signal: AbortSignal;
  /**
   * Reports progress to the client, when it asked for progress. Values that do not rise
   * above the last one reported for this call (in any round) are not sent.
   */
  progress(progress: number, options?: ProgressOptions): Promise<void>;
  /**
   * Sends a log message (`notifications/message`) to the client, when its level is at or
   * above the one the client asked for: `logging/setLevel` on the 2025 era, the request's
   * own log level on 2026-07-28 (a request that names none gets no log messages).
   */
  log(level: McpLogLevel, data: unknown, logger?: string): Promise<void>;
  /** The answer for `key`, read by kind (`missing` when there is none). */
  response(key: string): InputResponseView;
  /**
   * The content of an accepted form elicitation for `key`, or `undefined` (missing,
   * declined, cancelled). With a zod schema the content is parsed with it, and content
   * that fails it reads as `undefined` too.
   */
  accepted(key: string): Record<string, ElicitationValue> | undefined;
  /** The accepted content for `key`, parsed with `schema`; `undefined` when it fails it. */
  accepted<TSchema extends z.ZodType>(key: string, schema: TSchema): z.output<TSchema> | undefined;
}

/** An input-round hook: called once per input round until it returns `complete(...)`. */
export type InputRoundHook<TArgs, TValue> = (
  args: TArgs,
  context: InputRoundContext,
) => InputRoundResult<TValue> | Promise<InputRoundResult<TValue>>;

/** @deprecated Use {@link CompleteInputRound}; removed in the next minor. */
export type CompleteRound<TValue> = CompleteInputRound<TValue>;
/** @deprecated Use {@link InputRoundResult}; removed in the next minor. */
export type RoundResult<TValue> = InputRoundResult<TValue>;
/** @deprecated Use {@link InputRoundContext}; removed in the next minor. */
export type RoundContext = InputRoundContext;
/** @deprecated Use {@link InputRoundHook}; removed in the next minor. */
export type RoundHook<TArgs, TValue> = InputRoundHook<TArgs, TValue>;
