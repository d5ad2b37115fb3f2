import type { Message, ToolResult, Usage } from '@mtpx/protocol';

/**
 * Why a run ended:
 * - `final`: the model answered without asking for tools;
 * - `max_rounds`: the last allowed round still asked for tools (they were run);
 * - `tool_call_limit`: the model asked for more calls than `toolCallLimit` allows (the
 *   calls past the limit were answered with an error and not run);
 * - `cancelled`: the run's signal fired;
 * - `refusal`: the model refused (its turn's tool calls, if any, were not run).
 */
export type StopReason = 'final' | 'max_rounds' | 'tool_call_limit' | 'cancelled' | 'refusal';

/** The readable reasoning of one round. */
export interface RoundReasoning {
  /** 1 for the run's first model call. */
  round: number;
  text: string;
}

/** What a run gives back. Field names follow the MTP wire style (snake_case). */
export interface RunOutput {
  run_id: string;
  /** The model's last text (`""` when the run stopped before the model answered in text). */
  final_text: string;
  /**
   * The conversation after the run, without the system message: the session's earlier
   * messages (when the run belongs to one), the user's input, and every assistant and
   * tool message of this run, each call answered by one `role: "tool"` message.
   */
  messages: Message[];
  /** Every call's result in this run, in the order the calls were made. */
  tool_results: ToolResult[];
  /** Model calls made. */
  rounds: number;
  /** Tokens used by every model call of the run, summed. */
  usage: Usage;
  stop_reason: StopReason;
  /** The session the run belongs to, when it was given one. */
  session_id?: string;
  /** The model's readable reasoning, per round that showed any (absent when none did). */
  reasoning?: RoundReasoning[];
  /** For `stop_reason: "refusal"`: the model's refusal text or the API's explanation. */
  refusal?: string;
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

/** `total` plus `more`; optional counters appear once either side reports them. */
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
