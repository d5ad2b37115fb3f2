import type { RecordedEvent } from './recorded-event';

// A pure view of a recorded run, shared by the server, the web app and `replay`: it
// reads events by name and never needs the producing packages at run time.

/** A stretch of a call's life on the round's time axis. */
export interface CallSegment {
  kind: 'waiting' | 'held' | 'approval' | 'running' | 'cached' | 'error';
  startAt: number;
  endAt: number;
}

/** One tool call of a round, as the Inspector shows it. */
export interface CallView {
  id: string;
  name: string;
  /** Its place in the model's response (0-based), when known. */
  index?: number;
  /** The arguments as the model wrote them. */
  arguments?: unknown;
  /** The arguments with each `$ref` replaced by the output it names (when that output is known). */
  resolvedArguments?: unknown;
  /** The ids its `$ref`s (and `depends_on`) name. */
  references: string[];
  readyAt?: number;
  startAt?: number;
  endAt?: number;
  status: 'pending' | 'running' | 'ok' | 'error' | 'cached' | 'skipped';
  /** True when it started before the model had finished writing the response. */
  startedDuringStream: boolean;
  attempts: number;
  approval?: string;
  errorCode?: string;
  error?: string;
  output?: unknown;
  /** `call-progress` reports (MCP input rounds among them) and approval events, in order. */
  lane: Array<{ at: number; type: string; label: string }>;
  segments: CallSegment[];
  refused: boolean;
}

/** One model call and the calls of its response. */
export interface RoundView {
  round: number;
  startAt: number;
  /** When the model's answer was complete (`startAt + modelMs`), once the round is over. */
  modelEndAt?: number;
  endAt?: number;
  text: string;
  reasoning: string;
  finishReason?: string;
  usage?: Record<string, number>;
  calls: CallView[];
  /** Server-side tools the provider ran (`server-tool-used`). */
  serverTools: Array<{ at: number; blockType?: string; name?: string }>;
}

/** The whole run. */
export interface RunView {
  runId: string;
  status: 'running' | 'finished' | 'cancelled' | 'failed';
  input?: string;
  provider?: string;
  model?: string;
  agentName?: string;
  streaming?: boolean;
  eagerDispatch?: boolean;
  finalText?: string;
  stopReason?: string;
  error?: { code?: string; message: string };
  durationMs?: number;
  /** The last event's time: the run's length so far. */
  lastAt: number;
  usage: Record<string, number>;
  rounds: RoundView[];
  /** Events the model does not place (other branches' or later versions'), kept as they are. */
  other: RecordedEvent[];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The ids a value's `{"$ref": id}` objects name, in order. */
export function referencesIn(value: unknown): string[] {
  const found: string[] = [];
  const visit = (item: unknown) => {
    if (Array.isArray(item)) item.forEach(visit);
    else if (typeof item === 'object' && item !== null) {
      const object = item as Record<string, unknown>;
      if (typeof object.$ref === 'string') found.push(object.$ref);
      else Object.values(object).forEach(visit);
    }
  };
  visit(value);
  return [...new Set(found)];
}

function pointer(value: unknown, path: string): unknown {
  if (path === '' || path === '/') return value;
  let current = value;
  for (const raw of path.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** `value` with each `$ref` replaced by the output it names; unknown ones stay as written. */
export function resolveWith(value: unknown, outputs: ReadonlyMap<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveWith(item, outputs));
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  if (typeof object.$ref === 'string') {
    if (!outputs.has(object.$ref)) return value;
    const output = outputs.get(object.$ref);
    return typeof object.$path === 'string' ? pointer(output, object.$path) : output;
  }
  return Object.fromEntries(
    Object.entries(object).map(([key, item]) => [key, resolveWith(item, outputs)]),
  );
}

function numbers(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, item] of Object.entries(record(value))) {
    const n = num(item);
    if (n !== undefined) out[key] = n;
  }
  return out;
}

const placed = new Set([
  'run-started',
  'round-started',
  'text-delta',
  'tool-call-delta',
  'tool-call-ready',
  'plan-started',
  'plan-finished',
  'call-started',
  'call-progress',
  'call-retried',
  'call-finished',
  'call-skipped',
  'cache-failed',
  'round-finished',
  'run-finished',
  'run-cancelled',
  'run-failed',
  'reasoning-delta',
  'server-tool-used',
  'approval-requested',
  'approval-resolved',
  'call-held',
  'call-released',
]);

/**
 * Builds the view of a run from its events, in order. Works on a partial run (a run
 * in progress, or one whose process died): what has not happened yet is absent.
 */
export function buildRunView(runId: string, events: readonly RecordedEvent[]): RunView {
  const view: RunView = { runId, status: 'running', lastAt: 0, usage: {}, rounds: [], other: [] };
  const outputs = new Map<string, unknown>();
  let round: RoundView | undefined;
  const roundOf = (event: RecordedEvent): RoundView => {
    const wanted = num(event.round);
    if (wanted !== undefined) {
      const found = view.rounds.find((candidate) => candidate.round === wanted);
      if (found) return found;
    }
    if (round === undefined) {
      round = {
        round: wanted ?? 1,
        startAt: num(event.at) ?? 0,
        text: '',
        reasoning: '',
        calls: [],
        serverTools: [],
      };
      view.rounds.push(round);
    }
    return round;
  };
  const callOf = (event: RecordedEvent, id: string): CallView => {
    const owner = roundOf(event);
    let call = owner.calls.find((candidate) => candidate.id === id);
    if (call === undefined) {
      call = {
        id,
        name: text(event.toolName) ?? '',
        references: [],
        status: 'pending',
        startedDuringStream: false,
        attempts: 0,
        lane: [],
        segments: [],
        refused: false,
      };
      owner.calls.push(call);
    }
    if (call.name === '' && text(event.toolName)) call.name = text(event.toolName) as string;
    return call;
  };
  const open: Record<string, Map<string, number>> = { approval: new Map(), held: new Map() };

  for (const event of events) {
    const at = num(event.at) ?? view.lastAt;
    view.lastAt = Math.max(view.lastAt, at);
    const callId = text(event.callId);
    switch (event.type) {
      case 'run-started': {
        view.input = text(event.input);
        view.provider = text(event.provider);
        view.model = text(event.model);
        view.agentName = text(event.agentName);
        view.streaming = event.streaming === true;
        view.eagerDispatch = event.eagerDispatch === true;
        break;
      }
      case 'round-started': {
        round = {
          round: num(event.round) ?? view.rounds.length + 1,
          startAt: at,
          text: '',
          reasoning: '',
          calls: [],
          serverTools: [],
        };
        view.rounds.push(round);
        break;
      }
      case 'text-delta':
        roundOf(event).text += text(event.delta) ?? '';
        break;
      case 'reasoning-delta':
        roundOf(event).reasoning += text(event.text) ?? text(event.delta) ?? '';
        break;
      case 'server-tool-used': {
        const entry: RoundView['serverTools'][number] = { at };
        if (text(event.blockType)) entry.blockType = text(event.blockType) as string;
        if (text(event.name)) entry.name = text(event.name) as string;
        roundOf(event).serverTools.push(entry);
        break;
      }
      case 'tool-call-ready': {
        const written = record(event.toolCall);
        const executed = record(event.call);
        const id = text(executed.id) ?? text(written.id) ?? '';
        const call = callOf(event, id);
        call.name = text(executed.name) ?? call.name;
        call.index = num(event.index);
        call.arguments = written.arguments ?? executed.arguments;
        const dependsOn = Array.isArray(executed.depends_on)
          ? executed.depends_on.filter((item): item is string => typeof item === 'string')
          : [];
        call.references = [...new Set([...referencesIn(executed.arguments), ...dependsOn])];
        call.readyAt = at;
        call.refused = event.refused === true;
        break;
      }
      case 'call-held':
        if (callId) {
          callOf(event, callId).lane.push({
            at,
            type: 'held',
            label: text(event.reason) ?? 'held',
          });
          open.held?.set(callId, at);
        }
        break;
      case 'call-released':
        if (callId)
          closeSegment(callOf(event, callId), open.held as Map<string, number>, 'held', at);
        break;
      case 'approval-requested':
        if (callId) {
          callOf(event, callId).lane.push({ at, type: 'approval', label: 'approval asked' });
          open.approval?.set(callId, at);
        }
        break;
      case 'approval-resolved':
        if (callId) {
          const call = callOf(event, callId);
          call.lane.push({
            at,
            type: 'approval',
            label: event.approved === false ? 'denied' : 'approved',
          });
          closeSegment(call, open.approval as Map<string, number>, 'approval', at);
        }
        break;
      case 'call-started':
        if (callId) {
          const call = callOf(event, callId);
          const wasHeld = closeSegment(call, open.held as Map<string, number>, 'held', at);
          if (!wasHeld && call.readyAt !== undefined && at > call.readyAt)
            call.segments.push({ kind: 'waiting', startAt: call.readyAt, endAt: at });
          call.startAt = at;
          call.status = 'running';
          call.attempts = Math.max(call.attempts, 1);
          const owner = roundOf(event);
          call.startedDuringStream = owner.modelEndAt === undefined;
          if (call.arguments !== undefined)
            call.resolvedArguments = resolveWith(call.arguments, outputs);
        }
        break;
      case 'call-retried':
        if (callId) {
          const call = callOf(event, callId);
          call.attempts = (num(event.attempt) ?? call.attempts) + 1;
          call.lane.push({
            at,
            type: 'retry',
            label: `attempt ${num(event.attempt) ?? '?'} failed: ${text(event.error) ?? ''}`,
          });
        }
        break;
      case 'call-progress':
        if (callId) {
          const progress = record(event.progress);
          const parts = [
            text(progress.message),
            num(progress.completed) === undefined
              ? undefined
              : `${progress.completed}${num(progress.total) === undefined ? '' : `/${progress.total}`}`,
          ].filter(Boolean);
          callOf(event, callId).lane.push({
            at,
            type: 'progress',
            label: parts.join(' ') || 'progress',
          });
        }
        break;
      case 'call-finished':
        if (callId) {
          const call = callOf(event, callId);
          const result = record(event.result);
          const startAt = call.startAt ?? at - (num(event.durationMs) ?? 0);
          call.startAt = startAt;
          call.endAt = at;
          call.status =
            event.success === true ? (event.cached === true ? 'cached' : 'ok') : 'error';
          call.approval = text(event.approval);
          call.errorCode = text(event.errorCode);
          call.error = text(result.error);
          call.output = result.output;
          if (event.success === true) outputs.set(callId, result.output);
          const approvalEnd = call.segments.find((segment) => segment.kind === 'approval')?.endAt;
          call.segments.push({
            kind:
              call.status === 'cached' ? 'cached' : call.status === 'error' ? 'error' : 'running',
            startAt: Math.max(startAt, approvalEnd ?? startAt),
            endAt: at,
          });
        }
        break;
      case 'call-skipped':
        if (callId) {
          const call = callOf(event, callId);
          const result = record(event.result);
          call.status = 'skipped';
          call.errorCode = text(event.errorCode);
          call.error = text(event.error) ?? text(result.error);
          call.startAt ??= at;
          call.endAt = at;
        }
        break;
      case 'round-finished': {
        const owner = roundOf(event);
        const modelMs = num(event.modelMs);
        if (modelMs !== undefined) owner.modelEndAt = owner.startAt + modelMs;
        owner.endAt = at;
        owner.finishReason = text(event.finishReason);
        owner.usage = numbers(event.usage);
        const message = record(event.message);
        if (typeof message.content === 'string' && owner.text === '') owner.text = message.content;
        if (text(event.reasoning) && owner.reasoning === '')
          owner.reasoning = text(event.reasoning) as string;
        for (const call of owner.calls)
          call.startedDuringStream =
            call.startAt !== undefined &&
            owner.modelEndAt !== undefined &&
            call.startAt < owner.modelEndAt;
        for (const [key, value] of Object.entries(owner.usage))
          view.usage[key] = (view.usage[key] ?? 0) + value;
        round = undefined;
        break;
      }
      case 'run-finished':
      case 'run-cancelled': {
        const output = record(event.output);
        view.status = event.type === 'run-finished' ? 'finished' : 'cancelled';
        view.finalText = text(output.final_text);
        view.stopReason = text(output.stop_reason);
        view.durationMs = num(event.durationMs);
        if (Object.keys(record(output.usage)).length > 0) view.usage = numbers(output.usage);
        break;
      }
      case 'run-failed': {
        view.status = 'failed';
        const error: { code?: string; message: string } = {
          message: text(event.message) ?? 'failed',
        };
        if (text(event.code)) error.code = text(event.code) as string;
        view.error = error;
        view.durationMs = num(event.durationMs);
        break;
      }
      default:
        if (!placed.has(event.type)) view.other.push(event);
    }
  }
  return view;
}

function closeSegment(
  call: CallView,
  opened: Map<string, number>,
  kind: 'held' | 'approval',
  at: number,
): boolean {
  const from = opened.get(call.id);
  if (from === undefined) return false;
  opened.delete(call.id);
  call.segments.push({ kind, startAt: from, endAt: at });
  return true;
}
