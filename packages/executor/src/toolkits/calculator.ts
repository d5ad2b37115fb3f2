import { ToolExecutionError } from '../errors';
import { defineTool } from '../tools/define-tool';
import { defineToolkit, type Toolkit } from '../tools/toolkit';

const number = (description: string) => ({ type: 'number', description });

const twoNumbers = (a: string, b: string) => ({
  type: 'object',
  properties: { a: number(a), b: number(b) },
  required: ['a', 'b'],
  additionalProperties: false,
});

/** A result JSON can carry, or a clear error (JSON has no Infinity or NaN). */
function finite(result: number, operation: string): number {
  if (!Number.isFinite(result)) {
    throw new ToolExecutionError({
      code: 'out_of_range',
      message: `The result of ${operation} is too large to represent as a number.`,
    });
  }
  return result;
}

function calculatorTools() {
  return [
    defineTool({
      name: 'calculator.add',
      description: 'Add two numbers: a + b.',
      input_schema: twoNumbers('First addend.', 'Second addend.'),
      execute: ({ a, b }: { a: number; b: number }) => finite(a + b, `${a} + ${b}`),
    }),
    defineTool({
      name: 'calculator.subtract',
      description: 'Subtract b from a: a - b.',
      input_schema: twoNumbers('The number to subtract from.', 'The number to subtract.'),
      execute: ({ a, b }: { a: number; b: number }) => finite(a - b, `${a} - ${b}`),
    }),
    defineTool({
      name: 'calculator.multiply',
      description: 'Multiply two numbers: a × b.',
      input_schema: twoNumbers('First factor.', 'Second factor.'),
      execute: ({ a, b }: { a: number; b: number }) => finite(a * b, `${a} × ${b}`),
    }),
    defineTool({
      name: 'calculator.divide',
      description: 'Divide a by b: a ÷ b. b must not be 0.',
      input_schema: twoNumbers('The dividend.', 'The divisor (not 0).'),
      execute: ({ a, b }: { a: number; b: number }) => {
        if (b === 0) {
          throw new ToolExecutionError({
            code: 'division_by_zero',
            message: `Cannot divide ${a} by zero: "b" must not be 0.`,
          });
        }
        return finite(a / b, `${a} ÷ ${b}`);
      },
    }),
    defineTool({
      name: 'calculator.sqrt',
      description: 'The square root of x. x must not be negative.',
      input_schema: {
        type: 'object',
        properties: { x: number('The number (0 or more).') },
        required: ['x'],
        additionalProperties: false,
      },
      execute: ({ x }: { x: number }) => {
        if (x < 0) {
          throw new ToolExecutionError({
            code: 'negative_square_root',
            message: `Cannot take the square root of the negative number ${x}: there is no real result.`,
          });
        }
        return Math.sqrt(x);
      },
    }),
  ];
}

/**
 * The `calculator` toolkit: `calculator.add`, `.subtract`, `.multiply`, `.divide` (a, b)
 * and `.sqrt` (x). Division by zero, negative square roots and results too large for
 * JSON fail with a clear error.
 *
 * @example
 * ```ts source="./toolkits.examples.ts#calculatorToolkit"
 * const executor = createExecutor({ tools: [calculatorToolkit()] });
 * ```
 */
export function calculatorToolkit(): Toolkit {
  return defineToolkit({
    name: 'calculator',
    description: 'Arithmetic on numbers: add, subtract, multiply, divide, sqrt.',
    load: calculatorTools,
  });
}
