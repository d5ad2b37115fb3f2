import type { ToolProgress } from '@mtpx/executor';
import type {
  Approval,
  AssistantMessage,
  AssistantToolCall,
  FinishReason,
  JsonValue,
  ToolErrorCode,
  ToolResult,
  Usage,
} from '@mtpx/protocol';
import type { AgentEvent } from '../events/agent-events';
import type { RunOutput, StopReason } from '../run/run-output';
import type { UnknownEvent } from './unknown-event';

/** Where a run is: going on (or its record stops there), or over and how. */
export type RunViewStatus = 'running' | 'finished' | 'cancelled' | 'failed';

/**
 * Where a call is:
 * - `pending`: complete and handed on, waiting for the calls it references (or not yet started);
 * - `held`: safe eager dispatch holds it until the response has finished normally;
 * - `running`: started (a person may be deciding on it: see `approvalAskedAt`);
 * - `succeeded`, `failed`: finished (`cached` says whether its output was reused);
 * - `skipped`: never run (invalid, a dependency failed, over the call limit, cancelled).
 */
export type CallViewStatus = 'pending' | 'held' | 'running' | 'succeeded' | 'failed' | 'skipped';

/** A stretch of a call's life on the run's clock. */
export interface CallPhase {
  /**
   * `waiting`: for the calls it references; `held`: by safe eager dispatch; `approval`: for
   * a person's answer; `running`: the tool at work (its outcome is the call's).
   */
  kind: 'waiting' | 'held' | 'approval' | 'running';
  startAt: number;
  endAt: number;
}

/** A `$ref` (or `depends_on`) edge: the call `to` needs the output of the call `from`. */
export interface CallEdge {
  /** The referenced call (of this round or an earlier one). */
  from: string;
  /** The call whose arguments hold the reference. */
  to: string;
  /** The round of `to`. */
  round: number;
  kind: '$ref' | 'depends_on';
  /** JSON Pointer to the reference inside `to`'s arguments (a `$ref` edge). */
  location?: string;
  /** The reference's `$path` into `from`'s output, when it has one. */
  path?: string;
}

/** An event about one call (it carries `callId`). */
export type CallEvent = Extract<AgentEvent, { callId: string }>;

/** One tool call of a round: what the model wrote, how it was run, and what came back. */
export interface CallView {
  /** The call's id (the executed call's: positional aliases rewritten). */
  id: string;
  /** The tool it names (`""` until an event says). */
  name: string;
  /** The round it belongs to. */
  round: number;
  /** Its place in the model's response (0-based), once ready. */
  index?: number;
  /** The call as the model wrote it. */
  toolCall?: AssistantToolCall;
  /** The call as it is executed (its `$ref` aliases rewritten to the ids they name). */
  call?: AssistantToolCall;
  /** Each alias the call used and the id it was rewritten to. */
  aliases: Record<string, string>;
  /** True when `toolCallLimit` was reached: answered with an error, never run. */
  refused: boolean;
  /** The ids its `$ref`s name (in document order), then its `depends_on`, each once. */
  references: string[];
  /** The executed arguments with each `$ref` replaced by the output it names, once it started. */
  resolvedArguments?: JsonValue;
  status: CallViewStatus;
  /** True when its output came from the cache or an identical call of the run. */
  cached: boolean;
  readyAt?: number;
  heldAt?: number;
  /** Why safe eager dispatch held it (`risk level write`). */
  heldReason?: string;
  releasedAt?: number;
  startAt?: number;
  endAt?: number;
  /** The executor's time for it, without approval time (`call-finished`). */
  durationMs?: number;
  /** True when it started before the model had finished writing the response. */
  startedDuringStream: boolean;
  /** Attempts so far (1 once started; one more per retry). */
  attempts: number;
  /** Failed attempts that were run again. */
  retries: Array<{ at: number; attempt: number; delayMs: number; error: string }>;
  /** What the tool reported while running (an MCP tool's input rounds arrive as these). */
  progress: Array<{ at: number } & ToolProgress>;
  /** The policy's decision, once consulted. */
  approval?: Approval;
  /** When a person was asked, and when and how they answered. */
  approvalAskedAt?: number;
  approvalAnsweredAt?: number;
  approved?: boolean;
  /** The approval request's id (`apr_…`), as the run's pending approvals name it. */
  approvalId?: string;
  /** Why it needs approval (`risk level destructive: …`). */
  approvalReason?: string;
  /** True when it waits for a decision made after the run stopped (`agent.resume`). */
  approvalPending?: boolean;
  /** When a concurrency limit of its tool kept it from starting, and which (`browser.*`). */
  throttledAt?: number;
  throttledBy?: string;
  /** The call's result, once finished or skipped. */
  result?: ToolResult;
  /** The output (`result.output`: `null` when it failed), once finished. */
  output?: JsonValue;
  errorCode?: ToolErrorCode;
  /** Why it failed or was skipped, in the words the model reads. */
  error?: string;
  /** Closed stretches of its life, in order (an open one shows in `status`). */
  phases: CallPhase[];
  /** Every event about the call, in order. */
  events: CallEvent[];
}

/** A run of text or of readable reasoning, as the model wrote it. */
export interface RoundSegment {
  kind: 'text' | 'reasoning';
  text: string;
  startAt: number;
  endAt: number;
}

/** A block the API ran itself (a server-side tool), as the round reported it. */
export interface ServerToolView {
  at: number;
  blockType: string;
  id?: string;
  name?: string;
}

/** One model call of the run and the tool calls of its response. */
export interface RoundView {
  /** 1 for the run's first model call. */
  round: number;
  startAt: number;
  /** Messages sent and tools offered (`round-started`). */
  messageCount?: number;
  tools?: string[];
  /** Text and reasoning in the order they streamed (consecutive pieces of one kind joined). */
  segments: RoundSegment[];
  /** The text so far (the message's content when nothing streamed). */
  text: string;
  /** The readable reasoning so far. */
  reasoning: string;
  serverTools: ServerToolView[];
  /** The calls of the response, in the order they became known. */
  calls: CallView[];
  /** When the model's answer was complete (`startAt + modelMs`), once the round is over. */
  modelEndAt?: number;
  endAt?: number;
  message?: AssistantMessage;
  finishReason?: FinishReason;
  usage?: Usage;
  refusal?: string;
  modelMs?: number;
  durationMs?: number;
}

/** A run as its events tell it so far; made by {@link reduceRunView}. Plain data (JSON-safe but for `error`). */
export interface RunView {
  runId: string;
  status: RunViewStatus;
  input?: string;
  provider?: string;
  model?: string;
  agentName?: string;
  streaming?: boolean;
  eagerDispatch?: boolean;
  sessionId?: string;
  userId?: string;
  resumed?: boolean;
  /** The last event's time: the run's length so far. */
  lastAt: number;
  rounds: RoundView[];
  /** Every `$ref` and `depends_on` edge between calls, in the order the calls became ready. */
  edges: CallEdge[];
  /** Tokens so far: the rounds' summed, then the run's own total once it ended. */
  usage?: Usage;
  /** The run's output, once it finished or was cancelled. */
  output?: RunOutput;
  /** The answer (`output.finalText`; records of earlier versions say `final_text`). */
  finalText?: string;
  /** Why the run ended (`output.stopReason`; earlier records: `stop_reason`). */
  stopReason?: StopReason;
  /** The cancellation's reason. */
  cancelReason?: unknown;
  /** Why it failed. */
  failure?: { code?: string; message: string; error: unknown };
  durationMs?: number;
  /** Events this version does not know (a later version's, another package's), kept as they are. */
  other: UnknownEvent[];
}
