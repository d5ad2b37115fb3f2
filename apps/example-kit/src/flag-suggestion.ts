/** How many single-letter edits (insert, delete, replace, swap two neighbours) turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const previous = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  return (rows[a.length] as number[])[b.length] as number;
}

/**
 * The known flag closest to a mistyped one (`providr` → `provider`), or `undefined` when
 * none is close: at most two edits, and fewer than half the typed name's letters.
 */
export function closestFlag(typed: string, known: readonly string[]): string | undefined {
  const name = typed.replace(/^-+/, '').split('=')[0] ?? '';
  let best: { flag: string; distance: number } | undefined;
  for (const flag of known) {
    const distance = editDistance(name, flag);
    if (distance <= 2 && distance < name.length / 2 && (!best || distance < best.distance))
      best = { flag, distance };
  }
  return best?.flag;
}

/**
 * The usage error for a flag the app does not know, in the app's own words: pnpm passes
 * every word after the script name on, so Node's advice to put it after `--` misleads.
 */
export function unknownFlagMessage(typed: string, known: readonly string[]): string {
  const suggestion = closestFlag(typed, known);
  return suggestion === undefined
    ? `Unknown flag ${typed} (see --help for the flags this app takes).`
    : `Unknown flag ${typed}: did you mean --${suggestion}? (see --help)`;
}
