// Type-checked examples shown in the TSDoc of `define-tool.ts` (scripts/docs/examples.mjs).
import { defineTool } from '@mtpx/executor';
import { z } from 'zod';

export function defineToolExample() {
  //#region defineTool
  const add = defineTool({
    name: 'calculator.add',
    description: 'Add two numbers.',
    input_schema: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => a + b, // a and b are numbers
  });
  //#endregion defineTool
  return add;
}
