import {
  type CallView as AgentCallView,
  type RoundView as AgentRoundView,
  type RunView as AgentRunView,
  type RunViewEvent,
  resolveKnownReferences,
  runViewOf,
  unknownEvent,
} from '@mtpx/agent/run-view';
import { findRefs, type JsonValue } from '@mtpx/protocol';
import type { RecordedEvent } from '../record/recorded-event';

// The Inspector's view of a recorded run, shared by the server, the web app and `replay`:
// the agent's run view (one reducer for every event consumer), in the shape the pages
// draw — statuses, bars and lane marks.

/** A stretch of a call's life on the round's time axis. */
export interface CallSegment {
  kind: 'waiting' | 'held' | 'approval' | 'running' | 'cached' | 'error';
  startAt: number;
  endAt: number;
}

/** One tool call of a round, as the Inspector shows it: the agent's call view, drawn. */
export interface CallView
  extends Pick<
    AgentCallView,
    | 'id'
    | 'name'
    | 'index'
    | 'references'
    | 'readyAt'
    | 'startAt'
    | 'endAt'
    | 'startedDuringStream'
    | 'attempts'
    | 'refused'
  > {
  /** The arguments as the model wrote them. */
  arguments?: unknown;
  /** The executed arguments with each `$ref` whose output is known replaced by it. */
  resolvedArguments?: unknown;
  status: 'pending' | 'running' | 'ok' | 'error' | 'cached' | 'skipped';
  approval?: string;
  errorCode?: string;
  error?: string;
  output?: unknown;
  /** `call-progress` reports (MCP input rounds among them) and approval events, in order. */
  lane: Array<{ at: number; type: string; label: string }>;
  segments: CallSegment[];
}

/** One model call and the calls of its response. */
export interface RoundView
  extends Pick<
    AgentRoundView,
    'round' | 'startAt' | 'modelEndAt' | 'endAt' | 'text' | 'reasoning'
  > {
  finishReason?: string;
  usage?: Record<string, number>;
  calls: CallView[];
  /** Server-side tools the provider ran (`server-tool-used`). */
  serverTools: Array<{ at: number; blockType?: string; name?: string }>;
}

/** A call the run waits on a person for (`output.pendingApprovals`). */
export interface PendingApprovalView {
  approvalId: string;
  callId: string;
  toolName: string;
  riskLevel: string;
  reason: string;
  /** The arguments as the tool would receive them. */
  arguments: unknown;
  /** The calls its `$ref`s named. */
  references: string[];
  /** Calls that wait on it. */
  waiting: string[];
}

/** The whole run. */
export interface RunView
  extends Pick<
    AgentRunView,
    | 'runId'
    | 'status'
    | 'input'
    | 'provider'
    | 'model'
    | 'agentName'
    | 'streaming'
    | 'eagerDispatch'
    | 'finalText'
    | 'durationMs'
    | 'lastAt'
  > {
  stopReason?: string;
  /** For a run that stopped waiting for approval: the calls that wait. */
  pendingApprovals?: PendingApprovalView[];
  error?: { code?: string; message: string };
  usage: Record<string, number>;
  rounds: RoundView[];
  /** Events the model does not place (other branches' or later versions'), kept as they are. */
  other: RecordedEvent[];
}

/**
 * Builds the view of a run from its events, in order. Works on a partial run (a run
 * in progress, or one whose process died): what has not happened yet is absent.
 */
export function buildRunView(runId: string, events: readonly RecordedEvent[]): RunView {
  return inspectorRunView(runViewOf(events as readonly RunViewEvent[], runId));
}

/**
 * The Inspector's view of the agent's run view.
 *
 * @internal
 */
export function inspectorRunView(run: AgentRunView): RunView {
  const view: RunView = {
    runId: run.runId,
    status: run.status,
    lastAt: run.lastAt,
    usage: numbers(run.usage),
    rounds: run.rounds.map(roundView),
    other: run.other as RecordedEvent[],
  };
  for (const key of [
    'input',
    'provider',
    'model',
    'agentName',
    'streaming',
    'eagerDispatch',
  ] as const)
    if (run[key] !== undefined) Object.assign(view, { [key]: run[key] });
  if (run.status === 'finished' || run.status === 'cancelled') {
    if (run.finalText !== undefined) view.finalText = run.finalText;
    if (run.stopReason !== undefined) view.stopReason = run.stopReason;
    const pending = run.output?.pendingApprovals;
    if (run.stopReason === 'awaiting_approval' && Array.isArray(pending))
      view.pendingApprovals = pending.map((approval) => ({
        approvalId: String(approval.approvalId),
        callId: String(approval.callId),
        toolName: String(approval.toolName),
        riskLevel: String(approval.riskLevel),
        reason: String(approval.reason ?? ''),
        arguments: approval.arguments,
        references: Array.isArray(approval.references) ? approval.references.map(String) : [],
        waiting: Array.isArray(approval.waiting) ? approval.waiting.map(String) : [],
      }));
  }
  if (run.failure !== undefined)
    view.error = {
      ...(run.failure.code === undefined ? {} : { code: run.failure.code }),
      message: run.failure.message,
    };
  if (run.durationMs !== undefined) view.durationMs = run.durationMs;
  return view;
}

function roundView(round: AgentRoundView): RoundView {
  const view: RoundView = {
    round: round.round,
    startAt: round.startAt,
    text: round.text,
    reasoning: round.reasoning,
    calls: round.calls.map(callView),
    serverTools: round.serverTools.map((tool) => ({
      at: tool.at,
      ...(typeof tool.blockType === 'string' ? { blockType: tool.blockType } : {}),
      ...(tool.name === undefined ? {} : { name: tool.name }),
    })),
  };
  if (round.modelEndAt !== undefined) view.modelEndAt = round.modelEndAt;
  if (round.endAt !== undefined) {
    view.endAt = round.endAt;
    if (round.finishReason !== undefined) view.finishReason = round.finishReason;
    view.usage = numbers(round.usage);
  }
  return view;
}

const STATUS: Record<AgentCallView['status'], CallView['status']> = {
  pending: 'pending',
  held: 'pending',
  running: 'running',
  succeeded: 'ok',
  failed: 'error',
  skipped: 'skipped',
};

function callView(call: AgentCallView): CallView {
  const status = call.status === 'succeeded' && call.cached ? 'cached' : STATUS[call.status];
  const view: CallView = {
    id: call.id,
    name: call.name,
    references: call.references,
    status,
    startedDuringStream: call.startedDuringStream,
    attempts: call.attempts,
    lane: call.events.flatMap(laneMark),
    segments: call.phases.map((phase) => ({
      kind:
        phase.kind !== 'running' ? phase.kind : status === 'ok' ? 'running' : (status as 'cached'),
      startAt: phase.startAt,
      endAt: phase.endAt,
    })),
    refused: call.refused,
  };
  const written = call.toolCall?.arguments ?? call.call?.arguments;
  const optional = {
    index: call.index,
    arguments: written,
    resolvedArguments: call.resolvedArguments,
    readyAt: call.readyAt,
    startAt: call.startAt,
    endAt: call.endAt,
    approval: call.approval,
    errorCode: call.errorCode,
    error: call.error,
    output: call.status === 'succeeded' || call.status === 'failed' ? call.output : undefined,
  };
  for (const [key, value] of Object.entries(optional))
    if (value !== undefined) Object.assign(view, { [key]: value });
  return view;
}

/** A point on a call's lane: held, approvals, retries, progress (MCP input rounds among them). */
function laneMark(event: AgentCallView['events'][number]): CallView['lane'] {
  const at = event.at;
  switch (event.type) {
    case 'call-held':
      return [
        { at, type: 'held', label: typeof event.reason === 'string' ? event.reason : 'held' },
      ];
    case 'call-throttled':
      return [
        {
          at,
          type: 'held',
          label: `waits for a slot of ${String(event.limit)} (cap ${String(event.cap)})`,
        },
      ];
    case 'approval-requested':
      return [
        {
          at,
          type: 'approval',
          label:
            typeof event.approvalId === 'string'
              ? `approval asked (${event.approvalId})`
              : 'approval asked',
        },
      ];
    case 'approval-resolved':
      return [
        {
          at,
          type: 'approval',
          label:
            event.pending === true
              ? 'waiting for approval'
              : event.approved === false
                ? 'denied'
                : 'approved',
        },
      ];
    case 'call-retried':
      return [
        {
          at,
          type: 'retry',
          label: `attempt ${typeof event.attempt === 'number' ? event.attempt : '?'} failed: ${event.error ?? ''}`,
        },
      ];
    case 'call-progress': {
      const { message, completed, total } = event.progress ?? {};
      const parts = [
        message,
        typeof completed === 'number'
          ? `${completed}${typeof total === 'number' ? `/${total}` : ''}`
          : undefined,
      ].filter(Boolean);
      return [{ at, type: 'progress', label: parts.join(' ') || 'progress' }];
    }
    case 'call-released':
    case 'call-started':
    case 'call-finished':
    case 'call-skipped':
    case 'cache-failed':
      return [];
    default:
      unknownEvent(event);
      return [];
  }
}

function numbers(value: object | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, item] of Object.entries(value ?? {}))
    if (typeof item === 'number' && Number.isFinite(item)) out[key] = item;
  return out;
}

/** @deprecated Use `findRefs` from `@mtpx/protocol` (each id once: `[...new Set(findRefs(value))]`); removed in the next minor. */
export function referencesIn(value: unknown): string[] {
  return [...new Set(findRefs(value))];
}

/** @deprecated Use `resolveKnownReferences` from `@mtpx/agent`; removed in the next minor. */
export function resolveWith(value: unknown, outputs: ReadonlyMap<string, unknown>): unknown {
  return resolveKnownReferences(
    value as JsonValue,
    (id) => outputs.get(id) as JsonValue | undefined,
  );
}
