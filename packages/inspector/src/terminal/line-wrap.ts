// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC.
const ANSI = /\u001b\[[0-9;]*m/g;

/** Words a line never starts with: units, which belong to the number before them. */
const UNIT = /^(ms|s|µs)\W*$/;

/**
 * How many columns `text` takes on a terminal: its length without colour codes.
 *
 * @internal
 */
export function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}

/**
 * `text` broken into lines of at most `columns` visible characters, at spaces only (a
 * word longer than a line stays whole, and a unit such as `ms` stays with its number), every line after the first indented by `hang`
 * spaces. Colour codes count for nothing. Without `columns`, or when it fits, one line.
 *
 * @internal
 */
export function wrapLine(text: string, columns: number | undefined, hang = 0): string[] {
  if (columns === undefined || visibleLength(text) <= columns) return [text];
  const lead = /^ */.exec(text)?.[0] ?? '';
  const words: string[] = [];
  // A unit stays with its number: `27 ms`, never `27` then `ms`.
  for (const word of text.slice(lead.length).split(' ')) {
    if (words.length > 0 && UNIT.test(word.replace(ANSI, '')))
      words[words.length - 1] += ` ${word}`;
    else words.push(word);
  }
  const lines: string[] = [];
  let current = lead;
  let width = lead.length;
  let empty = true;
  for (const word of words) {
    const length = visibleLength(word);
    if (!empty && width + 1 + length > columns) {
      lines.push(current);
      current = ' '.repeat(hang);
      width = hang;
      empty = true;
    }
    current += empty ? word : ` ${word}`;
    width += empty ? length : 1 + length;
    // Runs of spaces (column alignment) are kept within a line as empty words.
    empty = false;
  }
  lines.push(current);
  return lines;
}
