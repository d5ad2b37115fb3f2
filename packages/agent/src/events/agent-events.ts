import type { ExecutorEvent } from '@mtpx/executor';
import type {
  AssistantMessage,
  AssistantToolCall,
  FinishReason,
  ToolResult,
  Usage,
} from '@mtpx/protocol';
import type { RunOutput } from '../run/run-output';

/** What every agent event carries. */
export interface AgentEventBase {
  /** The run's id (`RunOutput.runId`). */
  runId: string;
  /**
   * Milliseconds since the run started (monotonic, from `performance.now()`): one clock
   * for every event of the run, the executor's included.
   */
  at: number;
}

/** The run began. */
export interface RunStartedEvent extends AgentEventBase {
  type: 'run-started';
  /** The user's input. */
  input: string;
  /** The provider's `name` and `model`. */
  provider: string;
  model: string;
  /** The agent's `name`, when it has one. */
  agentName?: string;
  /** True for `stream()` (model turns streamed), false for `run()`. */
  streaming: boolean;
  /** True when streamed calls start while the model is still writing later ones. */
  eagerDispatch: boolean;
  sessionId?: string;
  userId?: string;
  /** True when `agent.resume` goes on with a run another process began. */
  resumed?: boolean;
}

/** A model call is about to be made. */
export interface RoundStartedEvent extends AgentEventBase {
  type: 'round-started';
  /** 1 for the first model call of the run. */
  round: number;
  /** Messages sent, the system message included. */
  messageCount: number;
  /** Names of the tools offered to the model. */
  tools: string[];
}

/** A piece of the model's text, as it streams. */
export interface TextDeltaEvent extends AgentEventBase {
  type: 'text-delta';
  round: number;
  delta: string;
}

/** A piece of the model's readable reasoning (thinking), as it streams; never redacted or encrypted reasoning. */
export interface ReasoningDeltaEvent extends AgentEventBase {
  type: 'reasoning-delta';
  round: number;
  text: string;
}

/**
 * The model's response holds a block the API ran itself (Anthropic `server_tool_use`,
 * `mcp_tool_use`, `web_search_tool_result`, …). It is kept in the conversation and sent
 * back, and never dispatched to a local tool.
 */
export interface ServerToolUsedEvent extends AgentEventBase {
  type: 'server-tool-used';
  round: number;
  /** The API's block type (`server_tool_use`, `web_search_tool_result`, …). */
  blockType: string;
  /** The block's id (a result block: the id of the use it answers). */
  id?: string;
  /** The server tool's name (`web_search`), on a use block. */
  name?: string;
}

/** A piece of one tool call's arguments, as it streams. */
export interface ToolCallDeltaEvent extends AgentEventBase {
  type: 'tool-call-delta';
  round: number;
  /** The call's place in the model's response (0-based, in the order calls began). */
  index: number;
  /** Known from the call's first fragment on. */
  callId?: string;
  toolName?: string;
  argumentsDelta: string;
}

/**
 * One tool call is complete. In a streamed round with eager dispatch the agent hands it
 * to the executor at once, and the executor's `call-started` follows as soon as the calls
 * it references are done — possibly while the model is still writing later calls.
 */
export interface ToolCallReadyEvent extends AgentEventBase {
  type: 'tool-call-ready';
  round: number;
  /** The call's place in the model's response (0-based, in the order calls began). */
  index: number;
  /** The call as the model wrote it (this is what the conversation keeps). */
  toolCall: AssistantToolCall;
  /**
   * The call as it is executed: positional aliases in its `$ref`s rewritten to the ids
   * they name (`call_2` → `call_Xk3…`). The same object as `toolCall` when nothing changed.
   */
  call: AssistantToolCall;
  /** Each alias this call used, and the call id it was rewritten to (`{}` when none). */
  aliases: Record<string, string>;
  /** True when `toolCallLimit` was reached: the call is answered with an error and never run. */
  refused: boolean;
}

/**
 * Safe eager dispatch held a call while the model is still streaming: its tool changes
 * things (`write` / `destructive`), or it depends on such a call. It starts (with
 * `call-released`, then `call-started`) once the response has finished normally, and never
 * runs otherwise. The executor's `call-held`, stamped for the run (one definition).
 */
export type CallHeldEvent = Extract<AgentExecutorEvent, { type: 'call-held' }>;

/** A held call was released: its response finished normally. The executor's `call-released`, stamped for the run. */
export type CallReleasedEvent = Extract<AgentExecutorEvent, { type: 'call-released' }>;

/**
 * An executor event of one round, unchanged except for three fields: `runId` (always
 * set), `round`, and `at` re-stamped on the run's clock. `executorAt` keeps the
 * executor's own value (milliseconds since that round's executor run started); it is
 * absent on the `call-skipped` events the agent makes for calls past `toolCallLimit`,
 * which never reach the executor.
 */
export type AgentExecutorEvent = ExecutorEvent & {
  runId: string;
  round: number;
  executorAt?: number;
};

/** A round is over: the model's turn is complete and its calls have their results. */
export interface RoundFinishedEvent extends AgentEventBase {
  type: 'round-finished';
  round: number;
  /** The model's turn, as it wrote it. */
  message: AssistantMessage;
  finishReason: FinishReason;
  /** Tokens of this model call, when the provider reports them. */
  usage?: Usage;
  /** The model's readable reasoning in this turn, when it showed any. */
  reasoning?: string;
  /** For a `refusal`: the model's refusal text or the API's explanation. */
  refusal?: string;
  /** From the request to the end of the model's answer. */
  modelMs: number;
  /** From `round-started` to now (model time plus the time the last calls took after it). */
  durationMs: number;
  /** The results of this round's calls, in the order of `message.tool_calls`. */
  toolResults: ToolResult[];
}

/** The run ended with an answer or a limit (`output.stopReason` says which). */
export interface RunFinishedEvent extends AgentEventBase {
  type: 'run-finished';
  output: RunOutput;
  durationMs: number;
}

/** The run's signal fired; calls in flight were cancelled and answered. */
export interface RunCancelledEvent extends AgentEventBase {
  type: 'run-cancelled';
  /** `stopReason` is `cancelled`; `messages` keep what happened before the cancellation. */
  output: RunOutput;
  /** The signal's reason. */
  reason: unknown;
  durationMs: number;
}

/**
 * The run failed: the provider threw (its `ProviderError`, unwrapped), a session could not
 * be read or saved, or the provider broke its contract. Calls of the failed round that had
 * started were cancelled; calls the model had not finished writing never ran.
 */
export interface RunFailedEvent extends AgentEventBase {
  type: 'run-failed';
  /** The error `run()` rejects with. */
  error: unknown;
  /** The error's `code`, when it has one (`stream_interrupted`, `session_access_denied`, …). */
  code?: string;
  message: string;
  /** The round that failed (0 when the run failed before its first model call). */
  round: number;
  /** The results of the failed round's calls that had been handed to the executor. */
  toolResults: ToolResult[];
  durationMs: number;
}

/** Everything an agent run reports, discriminated by `type`. */
export type AgentEvent =
  | RunStartedEvent
  | RoundStartedEvent
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ServerToolUsedEvent
  | ToolCallDeltaEvent
  | ToolCallReadyEvent
  | AgentExecutorEvent
  | RoundFinishedEvent
  | RunFinishedEvent
  | RunCancelledEvent
  | RunFailedEvent;

/** Receives a run's events as they happen; must not throw (a throw is ignored). */
export type AgentEventHandler = (event: AgentEvent) => void;
