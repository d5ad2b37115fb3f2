import type { Message, ToolResult, Usage } from '@mtpx/protocol';
import type { PendingApproval } from '../approvals/pending-approval';

/**
 * Why a run ended:
 * - `final`: the model answered without asking for tools;
 * - `max_rounds`: the last allowed round still asked for tools (they were run);
 * - `tool_call_limit`: the model asked for more calls than `toolCallLimit` allows (the
 *   calls past the limit were answered with an error and not run);
 * - `cancelled`: the run's signal fired;
 * - `refusal`: the model refused (its turn's tool calls, if any, were not run);
 * - `awaiting_approval`: calls wait for a person's decision (`pendingApprovals`) and
 *   nothing else could run; `agent.resume(runId, { approvals })` goes on.
 */
export type StopReason =
  | 'final'
  | 'max_rounds'
  | 'tool_call_limit'
  | 'cancelled'
  | 'refusal'
  | 'awaiting_approval';

/** The readable reasoning of one round. */
export interface RoundReasoning {
  /** 1 for the run's first model call. */
  round: number;
  text: string;
}

/** What a run gives back. */
export interface RunOutput {
  /** The run's id (the `runId` of its events). */
  runId: string;
  /** The model's last text (`""` when the run stopped before the model answered in text). */
  finalText: string;
  /**
   * The conversation after the run, without the system message: the session's earlier
   * messages (when the run belongs to one), the user's input, and every assistant and
   * tool message of this run, each call answered by one `role: "tool"` message.
   */
  messages: Message[];
  /** Every call's result in this run, in the order the calls were made. */
  toolResults: ToolResult[];
  /** Model calls made. */
  rounds: number;
  /** Tokens used by every model call of the run, summed. */
  usage: Usage;
  /** Why the run ended. */
  stopReason: StopReason;
  /** The session the run belongs to, when it was given one. */
  sessionId?: string;
  /** The model's readable reasoning, per round that showed any (absent when none did). */
  reasoning?: RoundReasoning[];
  /** For `stopReason: "refusal"`: the model's refusal text or the API's explanation. */
  refusal?: string;
  /**
   * For `stopReason: "awaiting_approval"`: the calls that wait for a person's decision,
   * what each would do and what waits on it. Answer them with
   * `agent.resume(runId, { approvals })`, at once or one at a time.
   */
  pendingApprovals?: PendingApproval[];
  /** @deprecated Use {@link RunOutput.runId}; removed in the next minor. */
  run_id: string;
  /** @deprecated Use {@link RunOutput.finalText}; removed in the next minor. */
  final_text: string;
  /** @deprecated Use {@link RunOutput.toolResults}; removed in the next minor. */
  tool_results: ToolResult[];
  /** @deprecated Use {@link RunOutput.stopReason}; removed in the next minor. */
  stop_reason: StopReason;
  /** @deprecated Use {@link RunOutput.sessionId}; removed in the next minor. */
  session_id?: string;
}

/** The snake_case fields {@link RunOutput} keeps for one minor, each equal to its camelCase twin. */
type DeprecatedOutputFields =
  | 'run_id'
  | 'final_text'
  | 'tool_results'
  | 'stop_reason'
  | 'session_id';

/** A run's output from its camelCase fields, with the deprecated snake_case twins set to the same values. */
export function runOutput(fields: Omit<RunOutput, DeprecatedOutputFields>): RunOutput {
  const output: RunOutput = {
    ...fields,
    run_id: fields.runId,
    final_text: fields.finalText,
    tool_results: fields.toolResults,
    stop_reason: fields.stopReason,
  };
  if (fields.sessionId !== undefined) output.session_id = fields.sessionId;
  return output;
}

/** Zero tokens. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
}

/** The optional counters of {@link Usage}, each summed on its own. */
const optionalCounters = [
  'cachedInputTokens',
  'reasoningTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'cacheWrite5mTokens',
  'cacheWrite1hTokens',
  'cacheHitTokens',
  'cacheMissTokens',
] as const;

/**
 * `total` plus `more`; optional counters appear once either side reports them.
 * @internal
 */
export function addUsage(total: Usage, more: Usage | undefined): Usage {
  if (more === undefined) return total;
  const sum: Usage = {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    totalTokens: total.totalTokens + more.totalTokens,
  };
  for (const counter of optionalCounters) {
    if (total[counter] !== undefined || more[counter] !== undefined) {
      sum[counter] = (total[counter] ?? 0) + (more[counter] ?? 0);
    }
  }
  return sum;
}
