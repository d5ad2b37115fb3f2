import { sleepAtLeast } from '../support/sleep';

/** The four calculator operations of the task, answering at once. */
export const calculatorOperations = {
  add: (a: number, b: number) => a + b,
  subtract: (a: number, b: number) => a - b,
  multiply: (a: number, b: number) => a * b,
  divide: (a: number, b: number) => a / b,
} as const;

export type CalculatorOperation = keyof typeof calculatorOperations;

/** The facts `lookup` knows. */
const facts: Record<string, string> = {
  'boiling point of water': '100 °C at sea level',
  'speed of light': '299,792,458 m/s',
  'height of Mount Everest': '8,849 m',
  'tallest building': 'Burj Khalifa, 828 m',
  'longest river': 'the Nile, about 6,650 km',
};

/** The topics in the order the scripts look them up. */
export const lookupTopics = Object.keys(facts);

/**
 * What the tools of one run did, for checking after the run that each framework really
 * ran the task (the numbers, the look-ups) before its time is reported.
 */
export class ToolLog {
  readonly calculations: Array<{ operation: CalculatorOperation; result: number }> = [];
  readonly lookups: string[] = [];
  /** Notes saved by the `notes.save` write tool (row 4's write variant). */
  readonly notes: string[] = [];
  readonly #lookupLatencyMs: (topic: string) => number;

  /** `lookupLatencyMs` says how long the look-up of each topic takes. */
  constructor(lookupLatencyMs: (topic: string) => number) {
    this.#lookupLatencyMs = lookupLatencyMs;
  }

  calculate(operation: CalculatorOperation, a: number, b: number): number {
    const result = calculatorOperations[operation](a, b);
    this.calculations.push({ operation, result });
    return result;
  }

  async lookup(topic: string): Promise<string> {
    await sleepAtLeast(this.#lookupLatencyMs(topic));
    this.lookups.push(topic);
    return facts[topic] ?? `nothing known about ${topic}`;
  }

  /** The write tool of row 4's write variant: records the note and answers at once. */
  saveNote(text: string): string {
    this.notes.push(text);
    return 'saved';
  }
}

/** The JSON Schema of a calculator tool's arguments. */
export const calculatorSchema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

/** The JSON Schema of `lookup`'s arguments. */
export const lookupSchema = {
  type: 'object',
  properties: { topic: { type: 'string' } },
  required: ['topic'],
  additionalProperties: false,
} as const;
