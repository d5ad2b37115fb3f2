import type { ScriptedTurn } from '@mtpx/providers/testing';
import { lookupTopics } from './scenario-tools';

/** The user's task in row 3. */
export const roundsSavedTask =
  'Compute 15 + (4 × (18 − 6)) / 3, and look up the boiling point of water, the speed of light and the height of Mount Everest.';

const roundsSavedAnswer =
  '15 + (4 × (18 − 6)) / 3 = 31. Water boils at 100 °C at sea level, light travels at 299,792,458 m/s, and Mount Everest is 8,849 m high.';

const threeLookups = (turn: number) =>
  lookupTopics.slice(0, 3).map((topic, index) => ({
    id: `call_${turn}_${index + 2}`,
    name: 'lookup',
    arguments: { topic },
  }));

/**
 * Row 3 as MTPX plays it: ONE response with the three look-ups and the `$ref` chain
 * 18 − 6 → × 4 → ÷ 3 → + 15, then the answer. Two model calls.
 */
export const roundsSavedWithReferences: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
      { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
      { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
      { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
      ...lookupTopics.slice(0, 3).map((topic, index) => ({
        id: `call_${index + 5}`,
        name: 'lookup',
        arguments: { topic },
      })),
    ],
  },
  { text: roundsSavedAnswer },
];

/**
 * Row 3 as a runtime without references must play it: one dependency level per model
 * call — subtract and the three look-ups, multiply, divide, add, answer. Five model calls.
 */
export const roundsSavedLevelByLevel: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'call_1_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
      ...threeLookups(1),
    ],
  },
  { toolCalls: [{ id: 'call_2_1', name: 'calculator.multiply', arguments: { a: 4, b: 12 } }] },
  { toolCalls: [{ id: 'call_3_1', name: 'calculator.divide', arguments: { a: 48, b: 3 } }] },
  { toolCalls: [{ id: 'call_4_1', name: 'calculator.add', arguments: { a: 15, b: 16 } }] },
  { text: roundsSavedAnswer },
];

/** The scripted delays of row 3, in milliseconds at time scale 1. */
export const roundsSavedTiming = { firstByteMs: 300, lookupMs: 50 };

/** Row 3's lower bounds from the issue: 2 × 300 + 50 and 5 × 300 + 50. */
export const roundsSavedBounds = { withReferences: 650, levelByLevel: 1_550 };

/** The user's task in row 4. */
export const streamingTask =
  'Look up the boiling point of water, the speed of light, the height of Mount Everest, the tallest building and the longest river.';

/** Row 4: five independent look-ups in one streamed response, then the answer. */
export const streamingScript: ScriptedTurn[] = [
  {
    toolCalls: lookupTopics.map((topic, index) => ({
      id: `call_${index + 1}`,
      name: 'lookup',
      arguments: { topic },
    })),
  },
  {
    text: 'Water boils at 100 °C at sea level; light travels at 299,792,458 m/s; Everest is 8,849 m high; the Burj Khalifa is the tallest building at 828 m; the Nile is the longest river, about 6,650 km.',
  },
];

/**
 * Row 4's write variant: the same five look-ups, then a sixth call to the `notes.save`
 * write tool, then the answer. Safe eager dispatch holds the write until the response
 * has finished (it ends 100 ms after the fifth look-up); the look-ups still start early.
 */
export const streamingWriteScript: ScriptedTurn[] = [
  {
    toolCalls: [
      ...(streamingScript[0]?.toolCalls ?? []),
      { id: 'call_6', name: 'notes.save', arguments: { text: 'five facts looked up' } },
    ],
  },
  streamingScript[1] as ScriptedTurn,
];

/** The scripted delays of row 4, in milliseconds at time scale 1. */
export const streamingTiming = {
  firstByteMs: 300,
  /** Between one look-up's arguments and the next's. */
  gapMs: 100,
  /** Each look-up's latency, in streaming order. */
  lookupMs: [600, 400, 200, 100, 50],
};

/**
 * Row 4's lower bounds as the issue states them: eager dispatch ≈ 1,203 ms (the first
 * look-up starts at 300 ms and takes 600, then the 300 ms answer call), after the stream
 * ends ≈ 1,611 ms (the stream ends at 700 ms, then 600 + 300). The pure arithmetic gives
 * 1,200 and 1,600; the issue adds a few milliseconds of transport.
 */
export const streamingBounds = { eager: 1_203, afterStreamEnds: 1_611 };
