import type { AgentEvent } from '@mtpx/agent';
import {
  type CallView,
  callViewOf,
  createRunView,
  type RunView,
  reduceRunView,
  unknownEvent,
} from '@mtpx/agent/run-view';
import type { JsonValue } from '@mtpx/protocol';
import { formatSpan } from './durations';
import { formatCall, formatMs, formatValue } from './format';
import { drawGantt, type GanttRow } from './gantt';
import { visibleLength } from './line-wrap';
import { shorten, type TimelineOutput } from './terminal-output';

/** How the timeline is laid out. */
export interface TimelineOptions {
  /** Most columns of the round chart's time axis. */
  chartWidth: number;
  /** The terminal's width: the chart is narrowed to fit it. */
  columns?: number | undefined;
}

/** Where an event line's text starts: `   313 ms  ready  call_1  `. */
const EVENT_HANG = 26;

/**
 * The run as it happens, for people: a header, then for every round the model call and
 * each tool call as it becomes ready, starts (when it had to wait for its inputs) and
 * finishes, with its flags — and, when the round is over, a chart of the round on one
 * time axis, so calls that ran side by side overlap and eager dispatch shows as calls
 * running while the model is still writing. The model's readable reasoning is shown
 * dimmed when it showed any, and blocks the API ran itself (server tools) get a line.
 * Ends with the answer and the usage.
 */
export class TimelineView {
  readonly #terminal: TimelineOutput;
  readonly #options: TimelineOptions;
  #view: RunView = createRunView();

  constructor(terminal: TimelineOutput, options: TimelineOptions) {
    this.#terminal = terminal;
    this.#options = options;
  }

  #at(at: number): string {
    return this.#terminal.colors.dim(formatMs(at).padStart(9));
  }

  #call(event: { callId: string; round?: number }): CallView | undefined {
    return callViewOf(this.#view, event.callId, event.round);
  }

  /** Renders one event, drawn from the agent's run view. */
  handle(event: AgentEvent): void {
    this.#view = reduceRunView(this.#view, event);
    const { colors } = this.#terminal;
    switch (event.type) {
      case 'run-started':
        this.#terminal.line(`${this.#terminal.label('question')}${colors.bold(event.input)}`);
        this.#terminal.line(
          `${this.#terminal.label('run')}${event.streaming ? `streamed · eager dispatch ${event.eagerDispatch ? 'on: each call starts once it is complete and its inputs exist' : colors.yellow('off: calls start when the stream has ended')}` : 'whole turns'}`,
        );
        return;
      case 'round-started':
        this.#terminal.line();
        this.#terminal.line(
          `${colors.bold(colors.magenta(`round ${event.round}`))}  ${colors.dim(`model call with ${event.messageCount} messages and ${event.tools.length} tools`)}`,
        );
        return;
      case 'server-tool-used':
        this.#terminal.line(
          `${this.#at(event.at)}  ${colors.cyan('server')} ${colors.bold((event.id ?? '').padEnd(8))} ${event.name ?? event.blockType}${colors.dim(`  ${event.blockType}, run by the API`)}`,
        );
        return;
      case 'tool-call-ready': {
        const call = this.#call({ callId: event.call.id, round: event.round });
        const needs = call?.references ?? [];
        this.#terminal.line(
          `${this.#at(event.at)}  ${colors.cyan('ready')}  ${colors.bold(event.call.id.padEnd(8))}${formatCall(event.call.name, event.call.arguments as JsonValue)}${needs.length > 0 ? colors.dim(`  needs ${needs.join(', ')}`) : ''}${event.refused ? colors.red('  refused: over the tool call limit') : ''}`,
          EVENT_HANG,
        );
        return;
      }
      case 'call-started': {
        const call = this.#call(event);
        const needs = call?.references ?? [];
        if (call?.readyAt !== undefined && needs.length > 0) {
          const waited = `waited ${formatMs(event.at - call.readyAt)} for ${needs.join(', ')}`;
          this.#terminal.line(
            `${this.#at(event.at)}  ${colors.blue('start')}  ${colors.bold(event.callId.padEnd(8))}${colors.dim(waited)}`,
            EVENT_HANG,
          );
        }
        return;
      }
      case 'call-retried':
        this.#terminal.line(
          `${this.#at(event.at)}  ${colors.yellow('retry')}  ${colors.bold(event.callId.padEnd(8))}${colors.dim(`attempt ${event.attempt} failed (${event.error}); again in ${formatMs(event.delayMs)}`)}`,
          EVENT_HANG,
        );
        return;
      case 'call-finished': {
        const call = this.#call(event);
        const flags = (call === undefined ? [] : flagsOf(call))
          .map((flag) => colors.yellow(`[${flag}]`))
          .join(' ');
        if (call?.approvalPending === true) {
          // Left for a person's later decision: a wait, not a failure.
          this.#terminal.line(
            `${this.#at(event.at)}  ${colors.yellow('waits')}  ${colors.bold(event.callId.padEnd(8))}${colors.yellow(`for approval ${call.approvalId ?? ''}`)}  ${colors.dim('decided later: agent.resume(runId, { approvals })')}`,
            EVENT_HANG,
          );
          return;
        }
        const outcome = event.success
          ? `→ ${formatValue(event.result.output, 48)}`
          : colors.red(`✗ ${event.errorCode ?? 'error'}: ${shorten(event.result.error ?? '', 80)}`);
        this.#terminal.line(
          `${this.#at(event.at)}  ${event.success ? colors.green('done ') : colors.red('fail ')}  ${colors.bold(event.callId.padEnd(8))}${outcome}  ${colors.dim(`in ${formatMs(event.durationMs)}`)}${flags ? ` ${flags}` : ''}`,
          EVENT_HANG,
        );
        return;
      }
      case 'call-skipped':
        this.#terminal.line(
          `${this.#at(event.at)}  ${colors.yellow('skip ')}  ${colors.bold(event.callId.padEnd(8))}${colors.yellow(`[skipped] ${event.errorCode}: ${shorten(event.error, 80)}`)}`,
          EVENT_HANG,
        );
        return;
      case 'round-finished':
        this.#roundFinished(event);
        return;
      case 'run-finished': {
        const { output } = event;
        const view = this.#view;
        const toolRounds = view.rounds.filter(
          (round) => round.endAt !== undefined && round.calls.length > 0,
        );
        const callCount = toolRounds.reduce((sum, round) => sum + round.calls.length, 0);
        this.#terminal.line();
        this.#terminal.line(
          `${this.#terminal.label('answer', colors.green)}${colors.bold(view.finalText || '(none)')}`,
        );
        const tokens =
          output.usage.totalTokens > 0
            ? `${output.usage.totalTokens} tokens (${output.usage.inputTokens} in, ${output.usage.outputTokens} out)`
            : 'no token counts (the scripted model reports none)';
        this.#terminal.line(
          `${this.#terminal.label('usage')}${output.rounds} model call${output.rounds === 1 ? '' : 's'} · ${toolRounds.length} tool round${toolRounds.length === 1 ? '' : 's'} · ${callCount} tool calls · ${tokens} · ${formatMs(event.durationMs)}`,
        );
        if (view.stopReason !== 'final')
          this.#terminal.line(
            `${this.#terminal.label('stopped', colors.yellow)}${view.stopReason}${output.refusal ? `: ${shorten(output.refusal, 120)}` : ''}`,
          );
        return;
      }
      case 'run-cancelled':
        this.#terminal.line(
          `${this.#terminal.label('cancelled', colors.yellow)}${String(event.reason)}`,
        );
        return;
      case 'run-failed':
        // The message itself is printed once, by the app's exit path.
        this.#terminal.line(
          `${this.#terminal.label('failed', colors.red)}round ${event.round}${event.code ? ` · ${event.code}` : ''}`,
        );
        return;
      // In the view (and on the chart), without a line of their own.
      case 'text-delta':
      case 'reasoning-delta':
      case 'tool-call-delta':
      case 'call-held':
      case 'call-released':
      case 'call-throttled':
      case 'plan-started':
      case 'call-progress':
      case 'approval-requested':
      case 'approval-resolved':
      case 'cache-failed':
      case 'plan-finished':
        return;
      default:
        unknownEvent(event);
        return;
    }
  }

  /** The chart's width: at most `chartWidth`, narrowed so label, bar and note fit the terminal. */
  #chartWidth(rows: readonly GanttRow[]): number {
    const { chartWidth, columns } = this.#options;
    if (columns === undefined) return chartWidth;
    const label = Math.max(...rows.map((row) => row.label.length));
    const note = Math.max(...rows.map((row) => visibleLength(row.note)));
    return Math.max(12, Math.min(chartWidth, columns - 2 - label - 2 - 2 - note));
  }

  #roundFinished(event: Extract<AgentEvent, { type: 'round-finished' }>): void {
    const { colors } = this.#terminal;
    const round = this.#view.rounds.find((candidate) => candidate.round === event.round);
    if (round === undefined) return;
    const text = typeof event.message.content === 'string' ? event.message.content.trim() : '';
    if (event.reasoning !== undefined) {
      this.#terminal.line(
        `${this.#at(event.at)}  ${colors.dim('think')}  ${colors.dim(shorten(event.reasoning.replace(/\s+/g, ' '), 100))}`,
      );
    }
    const calls = round.calls.map(chartCall);
    const usage =
      event.usage && event.usage.totalTokens > 0 ? ` · ${event.usage.totalTokens} tokens` : '';
    if (calls.length === 0) {
      this.#terminal.line(
        `${this.#at(event.at)}  ${colors.green('text ')}  ${colors.dim(`the model answered in ${formatMs(event.modelMs)} (${text.length} characters)${usage}`)}`,
        EVENT_HANG,
      );
      return;
    }
    const rows: GanttRow[] = [
      {
        label: 'model',
        startAt: round.startAt,
        endAt: round.startAt + event.modelMs,
        kind: 'model',
        note: colors.dim(
          `wrote ${calls.length} call${calls.length === 1 ? '' : 's'} in ${formatMs(event.modelMs)}`,
        ),
      },
      ...calls.map((call): GanttRow => {
        const flags = flagsOf(call);
        const kind =
          flags.includes('skipped') || flags.includes('denied')
            ? 'skipped'
            : call.status === 'failed'
              ? 'error'
              : call.cached
                ? 'cached'
                : 'ok';
        const startAt = call.startAt ?? call.readyAt ?? round.startAt;
        const span =
          call.endAt === undefined
            ? colors.yellow('not run')
            : formatSpan(startAt - round.startAt, call.endAt - round.startAt);
        return {
          label: `${call.id} ${call.name}`,
          ...(call.readyAt === undefined ? {} : { readyAt: call.readyAt }),
          startAt,
          ...(call.endAt === undefined ? {} : { endAt: call.endAt }),
          kind,
          note: colors.dim(span),
        };
      }),
    ];
    const toMs = Math.max(event.at, ...calls.map((call) => call.endAt ?? 0));
    this.#terminal.line();
    for (const line of drawGantt(
      rows,
      { fromMs: round.startAt, toMs, width: this.#chartWidth(rows) },
      colors,
    ))
      this.#terminal.line(line);
    const ran = calls.filter((call) => call.endAt !== undefined && call.startAt !== undefined);
    const work = ran.reduce((sum, call) => sum + ((call.endAt ?? 0) - (call.startAt ?? 0)), 0);
    const firstStart = Math.min(...ran.map((call) => call.startAt ?? Number.POSITIVE_INFINITY));
    const wall = ran.length === 0 ? 0 : toMs - firstStart;
    const modelEnd = round.startAt + event.modelMs;
    const early = ran.filter((call) => (call.startAt ?? modelEnd) < modelEnd).length;
    const facts = [
      `${calls.length} call${calls.length === 1 ? '' : 's'} from ONE model response`,
      ...(early > 0 ? [`${early} started while the model was still writing`] : []),
      `${formatMs(work)} of tool time in ${formatMs(wall)}`,
      `round ${formatMs(event.durationMs)}${usage}`,
    ];
    this.#terminal.line(`  ${facts.join(' · ')}`, 2);
    this.#terminal.line(
      colors.dim(
        `  ${colors.blue('▒')} model writing   · waiting for inputs   ${colors.green('█')} running   ${colors.cyan('░')} cached   ${colors.yellow('×')} skipped or denied`,
      ),
      2,
    );
  }
}

/** The flags a call's line and chart row show. */
function flagsOf(call: CallView): string[] {
  const flags: string[] = [];
  if (call.cached) flags.push('cached');
  if (call.approval === 'ask' && call.status === 'succeeded') flags.push('approved');
  if (call.errorCode === 'denied' && call.status !== 'skipped') flags.push('denied');
  if (call.errorCode === 'approval_required') flags.push('needs approval');
  if (call.status === 'skipped') flags.push('skipped');
  return flags;
}

/** A call as the chart draws it: a skipped call has no end (it never ran). */
function chartCall(call: CallView): CallView {
  return call.status === 'skipped' ? { ...call, endAt: undefined } : call;
}
