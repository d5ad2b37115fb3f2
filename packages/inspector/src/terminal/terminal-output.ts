import picocolors from 'picocolors';

/** The colour functions a timeline paints with (identity functions when colour is off). */
export type Colors = ReturnType<typeof picocolors.createColors>;

/** Where a timeline writes: lines, a label column, and colours. `@mtpx/example-kit`'s `Terminal` is one. */
export interface TimelineOutput {
  readonly colors: Colors;
  /**
   * Writes one line; an output that wraps long lines indents each continuation by `hang`
   * columns (example-kit's `Terminal` does, at the terminal's width).
   */
  line(text?: string, hang?: number): void;
  /** A left column label, padded so the lines after it align, optionally painted. */
  label(text: string, paint?: (text: string) => string): string;
}

/**
 * `text` cut to `length` characters, with an ellipsis when cut.
 *
 * @internal
 */
export function shorten(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, Math.max(0, length - 1))}…`;
}

/** A {@link TimelineOutput} writing to a stream (the replay's terminal). */
export function streamOutput(
  out: { write(text: string): unknown },
  color: boolean,
): TimelineOutput {
  const colors = picocolors.createColors(color);
  return {
    colors,
    line: (text = '') => {
      out.write(`${text}\n`);
    },
    label: (text, paint = (plain) => plain) => colors.bold(paint(text.padEnd(11))),
  };
}
