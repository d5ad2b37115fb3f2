import type { JsonValue } from '@mtpx/protocol';
import { scanReferences } from '@mtpx/protocol/internal';
import type { AgentEvent, ToolCallReadyEvent } from '../events/agent-events';
import { resolveKnownReferences } from './resolve-known';
import type { CallEdge, CallPhase, CallView, RoundView, RunView } from './run-view';

// How each call event changes its call. Pure: each returns a new call.

type Of<T extends AgentEvent['type']> = Extract<AgentEvent, { type: T }>;

/** A call the view meets for the first time. */
export function newCall(id: string, name: string, round: number): CallView {
  return {
    id,
    name,
    round,
    aliases: {},
    refused: false,
    references: [],
    status: 'pending',
    cached: false,
    startedDuringStream: false,
    attempts: 0,
    retries: [],
    progress: [],
    phases: [],
    events: [],
  };
}

/** The `$ref` edges of a ready call (protocol's scan, in document order), then its `depends_on`. */
export function edgesOf(event: ToolCallReadyEvent, id: string, round: number): CallEdge[] {
  const executed = event.call ?? event.toolCall;
  const edges: CallEdge[] = scanReferences(executed?.arguments).references.map((reference) => ({
    from: reference.$ref,
    to: id,
    round,
    kind: '$ref',
    location: reference.location,
    ...(reference.$path === undefined ? {} : { path: reference.$path }),
  }));
  for (const from of Array.isArray(executed?.depends_on) ? executed.depends_on : [])
    if (typeof from === 'string') edges.push({ from, to: id, round, kind: 'depends_on' });
  return edges;
}

export function readyCall(
  call: CallView,
  event: ToolCallReadyEvent,
  at: number,
  edges: CallEdge[],
): CallView {
  const executed = event.call ?? event.toolCall;
  const next: CallView = {
    ...call,
    name: executed?.name ?? call.name,
    toolCall: event.toolCall,
    call: executed,
    aliases: event.aliases ?? {},
    refused: event.refused === true,
    references: [...new Set(edges.map((edge) => edge.from))],
    readyAt: at,
  };
  if (typeof event.index === 'number') next.index = event.index;
  return next;
}

export function heldCall(call: CallView, event: Of<'call-held'>, at: number): CallView {
  return { ...call, status: 'held', heldAt: at, heldReason: event.reason };
}

export function releasedCall(call: CallView, at: number): CallView {
  if (call.heldAt === undefined || call.releasedAt !== undefined || call.startAt !== undefined)
    return call;
  return {
    ...call,
    status: 'pending',
    releasedAt: at,
    phases: [...call.phases, { kind: 'held', startAt: call.heldAt, endAt: at }],
  };
}

/** Started: the wait (or the hold) before it ends, its inputs are resolved as far as known. */
export function startedCall(call: CallView, at: number, round: RoundView, view: RunView): CallView {
  const phases = [...call.phases];
  if (call.status === 'held' && call.heldAt !== undefined)
    phases.push({ kind: 'held', startAt: call.heldAt, endAt: at });
  else {
    const from = call.releasedAt ?? call.readyAt;
    if (from !== undefined && at > from) phases.push({ kind: 'waiting', startAt: from, endAt: at });
  }
  const next: CallView = {
    ...call,
    status: 'running',
    startAt: at,
    attempts: Math.max(call.attempts, 1),
    startedDuringStream: round.modelEndAt === undefined,
    phases,
  };
  const args = call.call?.arguments;
  if (args !== undefined)
    next.resolvedArguments = resolveKnownReferences(args as JsonValue, (id) => outputOf(view, id));
  return next;
}

/** The output of the latest call with this id that succeeded. */
function outputOf(view: RunView, id: string): JsonValue | undefined {
  for (let index = view.rounds.length - 1; index >= 0; index--) {
    const found = view.rounds[index]?.calls.find(
      (call) => call.id === id && call.status === 'succeeded',
    );
    if (found !== undefined) return found.output;
  }
  return undefined;
}

export function approvalAskedCall(
  call: CallView,
  event: Of<'approval-requested'>,
  at: number,
): CallView {
  const next: CallView = { ...call, approvalAskedAt: at };
  if (typeof event.approvalId === 'string') next.approvalId = event.approvalId;
  if (typeof event.reason === 'string') next.approvalReason = event.reason;
  if (event.arguments !== undefined) next.resolvedArguments = event.arguments;
  return next;
}

export function throttledCall(call: CallView, event: Of<'call-throttled'>, at: number): CallView {
  return { ...call, throttledAt: call.throttledAt ?? at, throttledBy: event.limit };
}

export function approvalAnsweredCall(
  call: CallView,
  event: Of<'approval-resolved'>,
  at: number,
): CallView {
  const next: CallView = { ...call, approvalAnsweredAt: at, approved: event.approved };
  if (event.pending === true) next.approvalPending = true;
  if (call.approvalAskedAt !== undefined && call.approvalAnsweredAt === undefined)
    next.phases = [...call.phases, { kind: 'approval', startAt: call.approvalAskedAt, endAt: at }];
  return next;
}

export function retriedCall(call: CallView, event: Of<'call-retried'>, at: number): CallView {
  const attempt = typeof event.attempt === 'number' ? event.attempt : call.attempts;
  return {
    ...call,
    attempts: attempt + 1,
    retries: [
      ...call.retries,
      { at, attempt: event.attempt, delayMs: event.delayMs, error: event.error },
    ],
  };
}

export function progressedCall(call: CallView, event: Of<'call-progress'>, at: number): CallView {
  return { ...call, progress: [...call.progress, { at, ...event.progress }] };
}

export function finishedCall(call: CallView, event: Of<'call-finished'>, at: number): CallView {
  const startAt =
    call.startAt ?? at - (typeof event.durationMs === 'number' ? event.durationMs : 0);
  const approvalEnd = call.phases.find((phase) => phase.kind === 'approval')?.endAt;
  const running: CallPhase = {
    kind: 'running',
    startAt: Math.max(startAt, approvalEnd ?? startAt),
    endAt: at,
  };
  const next: CallView = {
    ...call,
    status: event.success === true ? 'succeeded' : 'failed',
    cached: event.cached === true,
    startAt,
    endAt: at,
    durationMs: event.durationMs,
    result: event.result,
    output: event.result?.output,
    approval: event.approval,
    errorCode: event.errorCode,
    error: event.result?.error ?? undefined,
    phases: [...call.phases, running],
  };
  return next;
}

export function skippedCall(call: CallView, event: Of<'call-skipped'>, at: number): CallView {
  return {
    ...call,
    status: 'skipped',
    errorCode: event.errorCode,
    error: event.error ?? event.result?.error ?? undefined,
    result: event.result,
    startAt: call.startAt ?? at,
    endAt: at,
  };
}
