/** How many single-letter edits (insert, delete, replace) turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * The `mpl` usage message for an option a command does not take, naming the closest
 * option it does take (`--verfy` → `--verify`) when one is at most two edits away.
 */
export function unknownOptionMessage(typed: string, known: readonly string[]): string {
  const name = typed.replace(/^-+/, '').split('=')[0] ?? '';
  let best: { option: string; distance: number } | undefined;
  for (const option of known) {
    const distance = editDistance(name, option);
    if (distance <= 2 && distance < name.length / 2 && (!best || distance < best.distance))
      best = { option, distance };
  }
  return best === undefined
    ? `Unknown option ${typed}`
    : `Unknown option ${typed}: did you mean --${best.option}?`;
}
