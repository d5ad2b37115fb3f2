import type { Readable, Writable } from 'node:stream';
import { LineReader, type Terminal } from '@mtpx/example-kit';
import type { ApproveHandler } from '@mtpx/executor';
import { formatCall } from '@mtpx/inspector/internal';
import type { JsonValue } from '@mtpx/protocol';

/**
 * Asks the person at the terminal before a write or destructive tool runs (`--ask`).
 * Questions are asked one at a time; while one is open, the timeline's lines are held
 * back so parallel calls finishing cannot break the prompt. Answers are read line by line
 * from `input` (a terminal, or a pipe: `echo y | …`); anything but `y`/`yes` — the end of
 * the input included — refuses.
 */
export class TerminalApprover {
  readonly #terminal: Terminal;
  readonly #input: Readable & { isTTY?: boolean };
  readonly #output: Writable;
  readonly #lines: LineReader;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(terminal: Terminal, input: Readable & { isTTY?: boolean }, output: Writable) {
    this.#terminal = terminal;
    this.#input = input;
    this.#output = output;
    this.#lines = new LineReader(input);
  }

  /** The executor's `approve` handler. */
  readonly approve: ApproveHandler = (spec, call, args, { signal }) => {
    const asked = this.#queue.then(() =>
      this.#ask(
        `${call.id} ${formatCall(spec.name, args as JsonValue)} (${spec.risk_level})`,
        signal,
      ),
    );
    this.#queue = asked.catch(() => {});
    return asked;
  };

  async #ask(what: string, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return false;
    this.#terminal.hold();
    try {
      const { colors } = this.#terminal;
      this.#output.write(`${colors.yellow('  ? allow')} ${what}? ${colors.dim('(y/N)')} `);
      const answer = (await this.#lines.next())?.trim() ?? '';
      if (!this.#input.isTTY) this.#output.write(`${answer}\n`);
      return /^y(es)?$/i.test(answer);
    } finally {
      this.#terminal.release();
    }
  }

  /** Stops reading the input, so the process can exit. */
  close(): void {
    this.#lines.close();
  }
}
