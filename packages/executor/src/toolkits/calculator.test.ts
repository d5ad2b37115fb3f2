import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor';
import { ToolRegistry } from '../tools/tool-registry';
import { calculatorToolkit } from './calculator';

const run = (name: string, args: Record<string, unknown>) =>
  createExecutor({ tools: [calculatorToolkit()] })
    .executeToolCalls([{ id: 'call_1', name, arguments: args as never }])
    .then(([result]) => result);

describe('the calculator toolkit', () => {
  it('adds, subtracts, multiplies, divides and takes square roots', async () => {
    expect((await run('calculator.add', { a: 15, b: 27 }))?.output).toBe(42);
    expect((await run('calculator.subtract', { a: 18, b: 6 }))?.output).toBe(12);
    expect((await run('calculator.multiply', { a: 4, b: 12 }))?.output).toBe(48);
    expect((await run('calculator.divide', { a: 48, b: 3 }))?.output).toBe(16);
    expect((await run('calculator.sqrt', { x: 2.25 }))?.output).toBe(1.5);
  });

  it('refuses division by zero and negative roots with clear errors', async () => {
    expect(await run('calculator.divide', { a: 1, b: 0 })).toMatchObject({
      success: false,
      error_code: 'tool_error',
      error: 'Cannot divide 1 by zero: "b" must not be 0.',
    });
    expect((await run('calculator.sqrt', { x: -4 }))?.error).toBe(
      'Cannot take the square root of the negative number -4: there is no real result.',
    );
    expect((await run('calculator.multiply', { a: 1e308, b: 10 }))?.error).toBe(
      'The result of 1e+308 × 10 is too large to represent as a number.',
    );
  });

  it('describes its five tools for a provider', () => {
    const specs = new ToolRegistry([calculatorToolkit()]).list();
    expect(specs.map((spec) => spec.name)).toEqual([
      'calculator.add',
      'calculator.subtract',
      'calculator.multiply',
      'calculator.divide',
      'calculator.sqrt',
    ]);
    expect(specs[0]?.input_schema).toMatchObject({
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(specs.every((spec) => spec.risk_level === 'read_only')).toBe(true);
  });
});
