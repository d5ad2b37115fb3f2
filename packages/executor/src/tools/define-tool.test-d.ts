import type { JsonObject } from '@mtpx/protocol';
import { expectTypeOf, test } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool, type ToolContext } from './define-tool';
import { ToolRegistry } from './tool-registry';

test('a zod schema types the arguments (its output, defaults applied)', () => {
  const tool = defineTool({
    name: 'greet',
    description: 'Greets.',
    input_schema: z.object({ name: z.string(), times: z.number().default(1) }),
    execute: (args, context) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string; times: number }>();
      expectTypeOf(context).toEqualTypeOf<ToolContext>();
      return args.name;
    },
  });
  expectTypeOf(tool).toEqualTypeOf<Tool<{ name: string; times: number }>>();
});

test('a JSON Schema gives JSON object arguments, or the type the function declares', () => {
  defineTool({
    name: 'raw',
    description: 'Raw.',
    input_schema: { type: 'object' },
    execute: (args) => {
      expectTypeOf(args).toEqualTypeOf<JsonObject>();
    },
  });
  const typed = defineTool({
    name: 'add',
    description: 'Adds.',
    input_schema: { type: 'object' },
    execute: ({ a, b }: { a: number; b: number }) => a + b,
  });
  expectTypeOf(typed).toEqualTypeOf<Tool<{ a: number; b: number }>>();
});

test('tools of any argument type go into one registry', () => {
  const zodTool = defineTool({
    name: 'z',
    description: 'z',
    input_schema: z.object({ n: z.number() }),
    execute: ({ n }) => n,
  });
  interface Args {
    text: string;
  }
  const interfaceTool = defineTool({
    name: 'i',
    description: 'i',
    input_schema: { type: 'object' },
    execute: ({ text }: Args) => text,
  });
  new ToolRegistry([zodTool, interfaceTool]);
});
