import type { Writable } from 'node:stream';
import { wrapLine } from '@mtpx/inspector/internal';
import picocolors from 'picocolors';

/** The colour functions the app uses (all identity functions when colour is off). */
export type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * Whether to colour output written to `stream`: `--color` / `--no-color` win, then
 * `NO_COLOR` and `FORCE_COLOR` (any value but `0`), then whether the stream is a terminal.
 * Piped output is never coloured unless asked for.
 */
export function shouldColor(
  stream: Writable & { isTTY?: boolean },
  flag: boolean | undefined,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '')
    return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** How a {@link Terminal} lays out its lines. */
export interface TerminalOptions {
  /**
   * The terminal's width: longer lines are broken at spaces, never inside a word (see
   * {@link Terminal.line}). Leave it out for piped output, which is never wrapped.
   */
  columns?: number | undefined;
}

/** The columns a {@link Terminal.label} takes. */
const LABEL_WIDTH = 11;

/** Where the app writes: lines to stdout, with or without colour. */
export class Terminal {
  readonly colors: Colors;
  /** The width lines are wrapped to; `undefined`: never wrapped. */
  readonly columns: number | undefined;
  readonly #out: Writable;
  #held: string[] | undefined;

  constructor(out: Writable, color: boolean, options: TerminalOptions = {}) {
    this.#out = out;
    this.colors = picocolors.createColors(color);
    this.columns = options.columns;
  }

  /**
   * Writes one line (kept back while a question is open, see {@link Terminal.hold}). A
   * line wider than {@link Terminal.columns} is broken at spaces, each continuation
   * indented by `hang` columns (default: the width of a {@link Terminal.label}).
   */
  line(text = '', hang = LABEL_WIDTH): void {
    for (const part of wrapLine(text, this.columns, hang)) {
      if (this.#held) this.#held.push(part);
      else this.#out.write(`${part}\n`);
    }
  }

  /** Keeps lines back until `release`, so output from parallel work cannot break a prompt. */
  hold(): void {
    this.#held ??= [];
  }

  /** Writes the lines kept back, in order. */
  release(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const text of held) this.#out.write(`${text}\n`);
  }

  /** A left column label, padded so the lines after it align, optionally painted. */
  label(text: string, paint: (text: string) => string = (plain) => plain): string {
    return this.colors.bold(paint(text.padEnd(LABEL_WIDTH)));
  }
}

/** `text` cut to `length` characters, with an ellipsis when cut. */
export function shorten(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, Math.max(0, length - 1))}…`;
}
