import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A JSON object of a recorded stream or body. */
export type Json = Record<string, unknown>;

const fixtures = join(import.meta.dirname, '../__fixtures__');

/** A recorded `*.chunks.txt` of `src/__fixtures__/<folder>`: one JSON chunk a line. */
export function recordedChunks(folder: string, name: string): Json[] {
  return readFileSync(join(fixtures, folder, name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Json);
}

/** A recorded `*.json` body of `src/__fixtures__/<folder>`. */
export function recordedBody(folder: string, name: string): Json {
  return JSON.parse(readFileSync(join(fixtures, folder, name), 'utf8')) as Json;
}

/** A deep copy (the recordings are never changed in place). */
export const copy = <T>(value: T): T => structuredClone(value);

/** `text` cut into pieces of at most `size` characters (as a model streams arguments). */
export function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length; start += size)
    result.push(text.slice(start, start + size));
  return result.length > 0 ? result : [''];
}

/** Ids for the seed's six calls from one recorded id: the recorded id, then `<id>_2` … `<id>_6`. */
export function derivedIdsFor(recorded: string, count = 6): string[] {
  return Array.from({ length: count }, (_, index) =>
    index === 0 ? recorded : `${recorded}_${index + 1}`,
  );
}
