import type { CallEdge, CallViewStatus } from '@mtpx/agent/run-view';
import type { Approval, JsonValue, ToolErrorCode, Usage } from '@mtpx/protocol';
import type { UIMessage } from 'ai';

/**
 * What MTPX knows about one tool call beyond the AI SDK's tool part (`data-mtpx-call`,
 * `id` = the call id, sent again as the call moves on, so a front end holds its latest).
 */
export interface MtpxCallData {
  callId: string;
  toolName: string;
  /** The model call (step) it belongs to, 1-based. */
  round: number;
  /** Its place in the model's response (0-based). */
  index?: number;
  /** Where the call is (the run view's status). */
  status: CallViewStatus;
  /** The arguments as the model wrote them (`$ref`s included; the tool part shows them resolved). */
  arguments?: JsonValue;
  /** The ids its `$ref`s (and `depends_on`) name: the calls it waited for. */
  references: string[];
  /** True when it started while the model was still writing the response. */
  startedDuringStream: boolean;
  /** True when safe eager dispatch held it until the turn had finished. */
  held: boolean;
  /** Why it was held (`risk level write`). */
  heldReason?: string;
  /** True while a person is asked to approve it. */
  awaitingApproval: boolean;
  /** The policy's decision, once consulted. */
  approval?: Approval;
  /** True when its output came from the cache or an identical call of the run. */
  cached: boolean;
  /** The tool's own time, once finished. */
  durationMs?: number;
  errorCode?: ToolErrorCode;
  /** The last progress the tool reported (not a preliminary output). */
  progress?: { message?: string; completed?: number; total?: number };
}

/**
 * A `$ref` (or `depends_on`) edge: `to` takes the output of `from` (`data-mtpx-edge`, `id` =
 * `from->to`) — the run view's {@link CallEdge}, as the agent reports it.
 */
export type MtpxEdgeData = CallEdge;

/** The run (`data-mtpx-run`, `id` = the run id): sent at its start and again at its end. */
export interface MtpxRunData {
  runId: string;
  provider: string;
  model: string;
  /** True when streamed calls start while the model is still writing later ones. */
  eagerDispatch: boolean;
  /** Why the run ended, once it has. */
  stopReason?: string;
  /** Tokens of the whole run, once it has ended. */
  usage?: Usage;
  durationMs?: number;
}

/** The data parts {@link toUIMessageStream} sends, by name (the chunk type is `data-` + name). */
export type MtpxDataTypes = {
  'mtpx-call': MtpxCallData;
  'mtpx-edge': MtpxEdgeData;
  'mtpx-run': MtpxRunData;
};

/** A `UIMessage` with MTPX's data parts typed: `useChat<MtpxUIMessage>()`. */
export type MtpxUIMessage<METADATA = unknown> = UIMessage<METADATA, MtpxDataTypes>;
