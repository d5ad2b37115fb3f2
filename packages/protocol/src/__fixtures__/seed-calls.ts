import type { ToolCallInput } from '../tool-call';

/**
 * The two native responses of the seed document (`001_…txt`), with `function.arguments`
 * already parsed: two independent calls, and a four-call `$ref` chain computing
 * 15 + (4 × (18 − 6)) / 3.
 */
export const seedParallelCalls: ToolCallInput[] = [
  { id: 'call_1', name: 'calculator.add', arguments: { a: 15, b: 27 } },
  { id: 'call_2', name: 'file.read_file', arguments: { path: 'notes.txt' } },
];

export const seedChainCalls: ToolCallInput[] = [
  { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
  { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
  { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
  { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
];
