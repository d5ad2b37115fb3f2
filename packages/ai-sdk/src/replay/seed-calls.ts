/**
 * The calculator seed of `apps/calculator-agent` as one model response: the `$ref` chain
 * 15 + (4 × (18 − 6)) / 3 (each step naming the call before it) and, independent of it, a
 * file read whose output a write takes by `$ref` — six calls in ONE response, their
 * arguments exactly the seed's: `{"$ref": "call_N"}` names the N-th call of the response
 * (the agent's positional aliases), whatever ids the API assigned. The ids are the
 * recorded response's (see each replay's builder); only names and arguments are ours.
 */
export interface SeedCall {
  /** The MTP tool name. */
  name: string;
  /** The name on the wire (`calculator_subtract`): what the AI SDK providers send and the model writes. */
  wireName: string;
  arguments: Record<string, unknown>;
}

/** The six calls, in order. */
export function seedCalls(): SeedCall[] {
  const ref = (index: number) => ({ $ref: `call_${index + 1}` });
  const calls: Array<Omit<SeedCall, 'wireName'>> = [
    { name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { name: 'calculator.multiply', arguments: { a: 4, b: ref(0) } },
    { name: 'calculator.divide', arguments: { a: ref(1), b: 3 } },
    { name: 'calculator.add', arguments: { a: 15, b: ref(2) } },
    { name: 'file.read_file', arguments: { path: 'notes.txt' } },
    { name: 'file.write_file', arguments: { path: 'backup/notes.txt', content: ref(4) } },
  ];
  return calls.map((call) => ({ ...call, wireName: call.name.replace('.', '_') }));
}

/** The seed's question. */
export const SEED_QUESTION =
  'What is 15 + (4 × (18 − 6)) / 3? Also back up notes.txt to backup/notes.txt and tell me what the note says.';

/** The note the file tools read (written into a temporary folder by the tests). */
export const SEED_NOTE =
  'Offsite budget, in thousands of euros: 15 + (4 × (18 − 6)) / 3.\nApproved by Ada on 2026-11-02.\n';
