import type { ExecutorEvent } from '@mtpx/executor';
import type { AgentEvent } from '../events/agent-events';
import { addUsage, emptyUsage, type RunOutput, type StopReason } from '../run/run-output';
import {
  approvalAnsweredCall,
  approvalAskedCall,
  edgesOf,
  finishedCall,
  heldCall,
  newCall,
  progressedCall,
  readyCall,
  releasedCall,
  retriedCall,
  skippedCall,
  startedCall,
  throttledCall,
} from './call-updates';
import type { CallEvent, CallView, RoundSegment, RoundView, RunView } from './run-view';
import { type UnknownEvent, unknownEvent } from './unknown-event';

/** What {@link reduceRunView} folds: the agent's events, an executor's own, or ones it does not know. */
export type RunViewEvent = AgentEvent | ExecutorEvent | UnknownEvent;

/** The view of a run before its first event. */
export function createRunView(runId = ''): RunView {
  return { runId, status: 'running', lastAt: 0, rounds: [], edges: [], other: [] };
}

/**
 * The view of a run from its events, in order: a run in progress (or one whose process
 * died) gives what has happened so far.
 *
 * @example
 * ```ts source="./run-view.examples.ts#runViewOf"
 * const events: AgentEvent[] = [];
 * await agent.run('What is 2 + 3?', { onEvent: (event) => events.push(event) });
 * const view = runViewOf(events);
 * for (const round of view.rounds)
 *   for (const call of round.calls) console.log(round.round, call.id, call.status, call.references);
 * ```
 */
export function runViewOf(events: Iterable<RunViewEvent>, runId?: string): RunView {
  let view = createRunView(runId);
  for (const event of events) view = reduceRunView(view, event);
  return view;
}

/**
 * Folds one event into a run's view and returns the new view; `view` itself is never
 * changed (the parts the event does not concern are shared). The one place that says what
 * each event means for the run, its rounds and its calls: the Inspector, the terminal
 * timeline and telemetry render from it. Events it does not know go to `other`.
 */
export function reduceRunView(view: RunView, input: RunViewEvent): RunView {
  const event = input as AgentEvent;
  const at = typeof event.at === 'number' && Number.isFinite(event.at) ? event.at : view.lastAt;
  const base: RunView = { ...view, lastAt: Math.max(view.lastAt, at) };
  if (base.runId === '' && typeof event.runId === 'string') base.runId = event.runId;
  switch (event.type) {
    case 'run-started':
      return {
        ...base,
        input: event.input,
        provider: event.provider,
        model: event.model,
        agentName: event.agentName,
        streaming: event.streaming === true,
        eagerDispatch: event.eagerDispatch === true,
        sessionId: event.sessionId,
        userId: event.userId,
        resumed: event.resumed,
      };
    case 'round-started':
      return {
        ...base,
        rounds: [
          ...base.rounds,
          {
            ...newRound(typeof event.round === 'number' ? event.round : base.rounds.length + 1, at),
            messageCount: event.messageCount,
            tools: event.tools,
          },
        ],
      };
    case 'text-delta':
      return withRound(base, event, at, (round) => wrote(round, 'text', event.delta, at));
    case 'reasoning-delta': {
      // Older records named the piece `delta`.
      const piece = event.text ?? (event as { delta?: string }).delta;
      return withRound(base, event, at, (round) => wrote(round, 'reasoning', piece, at));
    }
    case 'server-tool-used':
      return withRound(base, event, at, (round) => ({
        ...round,
        serverTools: [
          ...round.serverTools,
          {
            at,
            blockType: event.blockType,
            ...(event.id === undefined ? {} : { id: event.id }),
            ...(event.name === undefined ? {} : { name: event.name }),
          },
        ],
      }));
    case 'tool-call-delta':
      // Arguments still being written: the call joins the view once it is ready.
      return base;
    case 'tool-call-ready': {
      const id = event.call?.id ?? event.toolCall?.id ?? '';
      let edges: RunView['edges'] = [];
      const next = withCall(base, event, id, at, (call) => {
        edges = edgesOf(event, id, call.round);
        return readyCall(call, event, at, edges);
      });
      return { ...next, edges: [...next.edges, ...edges] };
    }
    case 'call-held':
      return withCall(base, event, event.callId, at, (call) => heldCall(call, event, at));
    case 'call-released':
      return withCall(base, event, event.callId, at, (call) => releasedCall(call, at));
    case 'call-started':
      return withCall(base, event, event.callId, at, (call, round) =>
        startedCall(call, at, round, base),
      );
    case 'approval-requested':
      return withCall(base, event, event.callId, at, (call) => approvalAskedCall(call, event, at));
    case 'call-throttled':
      return withCall(base, event, event.callId, at, (call) => throttledCall(call, event, at));
    case 'approval-resolved':
      return withCall(base, event, event.callId, at, (call) =>
        approvalAnsweredCall(call, event, at),
      );
    case 'call-retried':
      return withCall(base, event, event.callId, at, (call) => retriedCall(call, event, at));
    case 'call-progress':
      return withCall(base, event, event.callId, at, (call) => progressedCall(call, event, at));
    case 'call-finished':
      return withCall(base, event, event.callId, at, (call) => finishedCall(call, event, at));
    case 'call-skipped':
      return withCall(base, event, event.callId, at, (call) => skippedCall(call, event, at));
    case 'cache-failed':
      // The call went on as a cache miss: kept among its events.
      return withCall(base, event, event.callId, at, (call) => call);
    case 'plan-started':
    case 'plan-finished':
      // The executor's frame around a round's calls: the calls carry what it reports.
      return base;
    case 'round-finished':
      return finishRound(base, event, at);
    case 'run-finished':
    case 'run-cancelled':
      return {
        ...base,
        status: event.type === 'run-finished' ? 'finished' : 'cancelled',
        output: event.output,
        ...outputFacts(event.output),
        // A record's output may lack usage: the rounds' sum stands then.
        usage: Object.keys(event.output?.usage ?? {}).length > 0 ? event.output.usage : base.usage,
        durationMs: event.durationMs,
        ...(event.type === 'run-cancelled' ? { cancelReason: event.reason } : {}),
      };
    case 'run-failed':
      return {
        ...base,
        status: 'failed',
        failure: {
          ...(typeof event.code === 'string' ? { code: event.code } : {}),
          message: typeof event.message === 'string' ? event.message : 'failed',
          error: event.error,
        },
        durationMs: event.durationMs,
      };
    default:
      return { ...base, other: [...base.other, unknownEvent(event)] };
  }
}

/** The answer and the stop reason, under this version's names or an earlier record's. */
function outputFacts(output: RunOutput | undefined): Pick<RunView, 'finalText' | 'stopReason'> {
  const earlier = (output ?? {}) as { final_text?: unknown; stop_reason?: unknown };
  const finalText = output?.finalText ?? earlier.final_text;
  const stopReason = output?.stopReason ?? earlier.stop_reason;
  return {
    ...(typeof finalText === 'string' ? { finalText } : {}),
    ...(typeof stopReason === 'string' ? { stopReason: stopReason as StopReason } : {}),
  };
}

function newRound(round: number, at: number): RoundView {
  return { round, startAt: at, segments: [], text: '', reasoning: '', serverTools: [], calls: [] };
}

function wrote(
  round: RoundView,
  kind: RoundSegment['kind'],
  piece: unknown,
  at: number,
): RoundView {
  const text = typeof piece === 'string' ? piece : '';
  const segments = [...round.segments];
  const last = segments.at(-1);
  if (last?.kind === kind)
    segments[segments.length - 1] = { ...last, text: last.text + text, endAt: at };
  else segments.push({ kind, text, startAt: at, endAt: at });
  return { ...round, segments, [kind]: round[kind] + text };
}

function finishRound(
  view: RunView,
  event: Extract<AgentEvent, { type: 'round-finished' }>,
  at: number,
): RunView {
  const next = withRound(view, event, at, (round) => {
    const modelEndAt =
      typeof event.modelMs === 'number' ? round.startAt + event.modelMs : round.modelEndAt;
    const content = event.message?.content;
    return {
      ...round,
      modelEndAt,
      endAt: at,
      message: event.message,
      finishReason: event.finishReason,
      usage: event.usage,
      refusal: event.refusal,
      modelMs: event.modelMs,
      durationMs: event.durationMs,
      text: round.text === '' && typeof content === 'string' ? content : round.text,
      reasoning:
        round.reasoning === '' && typeof event.reasoning === 'string' && event.reasoning !== ''
          ? event.reasoning
          : round.reasoning,
      calls: round.calls.map((call) => ({
        ...call,
        startedDuringStream:
          call.startAt !== undefined && modelEndAt !== undefined && call.startAt < modelEndAt,
      })),
    };
  });
  return event.usage === undefined
    ? next
    : { ...next, usage: addUsage(next.usage ?? emptyUsage(), event.usage) };
}

/**
 * Applies `update` to the round an event concerns: the one its `round` names, else the
 * round going on, else a new one (an executor's own events have no round).
 */
function withRound(
  view: RunView,
  event: AgentEvent,
  at: number,
  update: (round: RoundView) => RoundView,
): RunView {
  const wanted = 'round' in event && typeof event.round === 'number' ? event.round : undefined;
  const rounds = [...view.rounds];
  let index = wanted === undefined ? -1 : rounds.findIndex((round) => round.round === wanted);
  if (index < 0 && rounds.at(-1)?.endAt === undefined) index = rounds.length - 1;
  if (index < 0) index = rounds.push(newRound(wanted ?? 1, at)) - 1;
  rounds[index] = update(rounds[index] as RoundView);
  return { ...view, rounds };
}

/** Applies `update` to the call `id` of the event's round (met for the first time: added). */
function withCall(
  view: RunView,
  event: AgentEvent,
  id: string,
  at: number,
  update: (call: CallView, round: RoundView) => CallView,
): RunView {
  const toolName = 'toolName' in event && typeof event.toolName === 'string' ? event.toolName : '';
  return withRound(view, event, at, (round) => {
    const calls = [...round.calls];
    let index = calls.findIndex((call) => call.id === id);
    if (index < 0) index = calls.push(newCall(id, toolName, round.round)) - 1;
    let call = calls[index] as CallView;
    if (call.name === '' && toolName !== '') call = { ...call, name: toolName };
    if ('callId' in event) call = { ...call, events: [...call.events, event as CallEvent] };
    calls[index] = update(call, round);
    return { ...round, calls };
  });
}

/**
 * The call an event concerns in a view: in the round the event names, else the latest
 * round that has a call with that id.
 */
export function callViewOf(view: RunView, callId: string, round?: number): CallView | undefined {
  if (round !== undefined) {
    const found = view.rounds
      .find((candidate) => candidate.round === round)
      ?.calls.find((call) => call.id === callId);
    if (found !== undefined) return found;
  }
  for (let index = view.rounds.length - 1; index >= 0; index--) {
    const found = view.rounds[index]?.calls.find((call) => call.id === callId);
    if (found !== undefined) return found;
  }
  return undefined;
}
