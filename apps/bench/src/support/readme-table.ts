import { readFile, writeFile } from 'node:fs/promises';

/** The markers around the quoted table in the root README. */
export const tableStart = '<!-- bench:table:start (written by `pnpm bench`; do not edit) -->';
export const tableEnd = '<!-- bench:table:end -->';

/** `readme` with the text between the bench markers replaced by `table`. */
export function withTable(readme: string, table: string): string {
  const start = readme.indexOf(tableStart);
  const end = readme.indexOf(tableEnd);
  if (start === -1 || end < start) {
    throw new Error(`the README has no ${tableStart} … ${tableEnd} block`);
  }
  return `${readme.slice(0, start + tableStart.length)}\n${table}\n${readme.slice(end)}`;
}

/** The text between the bench markers of `readme`, or `undefined` when it has none. */
export function quotedTable(readme: string): string | undefined {
  const start = readme.indexOf(tableStart);
  const end = readme.indexOf(tableEnd);
  if (start === -1 || end < start) return undefined;
  return readme.slice(start + tableStart.length, end).trim();
}

/** Rewrites the quoted table in the README file at `path`. */
export async function updateReadmeTable(path: string, table: string): Promise<void> {
  const readme = await readFile(path, 'utf8');
  await writeFile(path, withTable(readme, table));
}
