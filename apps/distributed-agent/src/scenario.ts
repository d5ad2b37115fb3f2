import type { ScriptedTurn } from '@mtpx/providers/testing';
import { wordsOf } from './tools';

/** The question the offline model answers. */
export const QUESTION =
  'Count the words of the eight chapter pages, add them up, and record the total in the ledger.';

/** The pages the model fetches. */
export const URLS = Array.from(
  { length: 8 },
  (_, index) => `https://books.example/chapter-${index + 1}`,
);

/** The total the run must end with. */
export const TOTAL = URLS.reduce((sum, url) => sum + wordsOf(url), 0);

/**
 * ONE model response with ten calls: eight fetches, their total (`$ref`s to all eight),
 * and the ledger entry (`$ref` to the total) — then the answer.
 */
export const scriptedTurns: ScriptedTurn[] = [
  {
    toolCalls: [
      ...URLS.map((url, index) => ({
        id: `call_${index + 1}`,
        name: 'pages.fetch',
        arguments: { url },
      })),
      {
        id: 'call_9',
        name: 'pages.total',
        arguments: { counts: URLS.map((_, index) => ({ $ref: `call_${index + 1}` })) },
      },
      {
        id: 'call_10',
        name: 'ledger.record',
        arguments: { entry: 'chapters', words: { $ref: 'call_9' } },
      },
    ],
  },
  { text: `The eight chapters hold ${TOTAL} words in all; the total is in the ledger.` },
];
