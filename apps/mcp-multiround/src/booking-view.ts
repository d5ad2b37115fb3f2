import type { AgentEvent } from '@mtpx/agent';
import { unknownEvent } from '@mtpx/agent/run-view';
import type { Terminal } from '@mtpx/example-kit';
import type { JsonValue } from '@mtpx/protocol';
import { compactJson, type TrafficEvent } from './protocol-traffic';
import type { FieldValue, UserEvents } from './terminal-user';

const INDENT = ' '.repeat(11);

/** What one tool call took on the wire. */
interface CallTally {
  requests: number;
  inputRequired: number;
  serverRequests: number;
}

/**
 * Shows the run as three voices on one page: the agent (rounds, the call, the answer),
 * the MCP wire as the client sees it (each `tools/call`, each `input_required` or
 * server request, the result), and the user answering the server's questions.
 */
export class BookingView implements UserEvents {
  readonly #terminal: Terminal;
  #tally: CallTally = { requests: 0, inputRequired: 0, serverRequests: 0 };

  constructor(terminal: Terminal) {
    this.#terminal = terminal;
  }

  /** One agent event. */
  agent(event: AgentEvent): void {
    const { colors } = this.#terminal;
    switch (event.type) {
      case 'round-started':
        this.#terminal.line();
        this.#terminal.line(
          `${this.#terminal.label(`round ${event.round}`, colors.magenta)}${colors.dim('model call')}`,
        );
        return;
      case 'tool-call-ready':
        this.#tally = { requests: 0, inputRequired: 0, serverRequests: 0 };
        this.#terminal.line(
          `${INDENT}the model calls ${colors.bold(event.call.name)} ${compactJson(event.call.arguments as JsonValue)}`,
        );
        return;
      case 'call-finished': {
        const outcome = event.success
          ? `${colors.green('✓')} ${event.toolName} → ${compactJson(event.result.output, 100)}`
          : `${colors.red('✗')} ${event.toolName}: ${event.result.error ?? 'failed'}`;
        this.#terminal.line(
          `${INDENT}${outcome} ${colors.dim(`in ${Math.round(event.durationMs)} ms`)}`,
        );
        const tally = this.#tally;
        const rounds =
          tally.inputRequired > 0
            ? `${tally.requests} tools/call requests: ${tally.inputRequired} answered input_required, then the result`
            : tally.serverRequests > 0
              ? `one tools/call request, inside which the server asked ${tally.serverRequests} question${tally.serverRequests === 1 ? '' : 's'}`
              : `one tools/call request`;
        this.#terminal.line(`${INDENT}${colors.dim(`multi-round call: ${rounds}`)}`);
        return;
      }
      case 'round-finished': {
        const text = typeof event.message.content === 'string' ? event.message.content.trim() : '';
        if (event.toolResults.length === 0 && text)
          this.#terminal.line(
            `${INDENT}the model answers ${colors.dim(`(${text.length} characters)`)}`,
          );
        return;
      }
      case 'run-finished':
        this.#terminal.line();
        this.#terminal.line(
          `${this.#terminal.label('answer', colors.green)}${colors.bold(event.output.finalText || '(none)')}`,
        );
        return;
      case 'run-failed':
        // The reason itself is the error line on stderr, printed once.
        this.#terminal.line(
          `${this.#terminal.label('failed', colors.red)}the run stopped${event.code ? ` (${event.code})` : ''}: the reason follows`,
        );
        return;
      // The rest of the run is the MCP wire's story, told by `traffic`.
      case 'run-started':
      case 'text-delta':
      case 'reasoning-delta':
      case 'server-tool-used':
      case 'tool-call-delta':
      case 'call-held':
      case 'call-released':
      case 'call-throttled':
      case 'plan-started':
      case 'call-started':
      case 'call-progress':
      case 'call-retried':
      case 'approval-requested':
      case 'approval-resolved':
      case 'call-skipped':
      case 'cache-failed':
      case 'plan-finished':
      case 'run-cancelled':
        return;
      default:
        unknownEvent(event);
        return;
    }
  }

  /** One exchange on the MCP wire. */
  traffic(event: TrafficEvent): void {
    const { colors } = this.#terminal;
    const out = colors.cyan('  → ');
    const back = colors.blue('  ← ');
    const state = (length: number | undefined) =>
      length === undefined ? '' : colors.dim(` + signed requestState (${length} chars)`);
    switch (event.kind) {
      case 'call-sent':
        this.#tally.requests += 1;
        this.#terminal.line(
          event.answered.length === 0
            ? `${INDENT}${out}tools/call ${event.name} ${compactJson(event.arguments)}`
            : `${INDENT}${out}tools/call ${event.name} again, with inputResponses {${event.answered.join(', ')}}${event.stateLength === undefined ? '' : ' and the requestState echoed'}`,
        );
        return;
      case 'input-required':
        this.#tally.inputRequired += 1;
        this.#terminal.line(
          `${INDENT}${back}input_required: ${event.requests.map((request) => `${request.key} (${request.method})`).join(', ')}${state(event.stateLength)}`,
        );
        return;
      case 'server-request':
        this.#tally.serverRequests += 1;
        this.#terminal.line(`${INDENT}${back}${event.method}: the server asks, inside the call`);
        return;
      case 'server-request-answered':
        this.#terminal.line(`${INDENT}${out}answer to ${event.method}: ${event.action ?? 'sent'}`);
        return;
      case 'result':
        this.#terminal.line(
          `${INDENT}${back}result${event.isError ? colors.red(' (isError)') : ''}`,
        );
        return;
      case 'error':
        this.#terminal.line(
          `${INDENT}${back}${colors.red(`error ${event.code}: ${event.message}`)}`,
        );
        return;
    }
  }

  asked(message: string): void {
    this.#terminal.line(
      `${INDENT}${this.#terminal.colors.yellow('  ? ')}${this.#terminal.colors.bold(message)}`,
    );
  }

  answered(field: string, value: FieldValue, source: string): void {
    if (source === 'typed') return; // the terminal shows what was typed
    const shown = value === true ? 'yes' : value === false ? 'no' : String(value);
    this.#terminal.line(
      `${INDENT}      ${field} = ${shown} ${this.#terminal.colors.dim(`(${source})`)}`,
    );
  }

  declined(reason: string): void {
    this.#terminal.line(`${INDENT}      ${this.#terminal.colors.yellow(`declined: ${reason}`)}`);
  }
}
