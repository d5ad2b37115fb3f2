import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import type { JsonObject, JsonSchemaObject, JsonValue } from '@mtpx/protocol';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from 'ai';
import type { CurrentLog } from './agent-variant';
import { type BfclFunction, bfclToolset, type ToolsetLog } from './bfcl-tools';

/** What a function's call is answered by: rows 8 and 9's logs. */
export interface FunctionCallLog {
  call(name: string, args: JsonObject): JsonValue;
}

/** Row 8's 29 BFCL functions as tools for our agent, each writing to `log`. */
export function bfclTools(log: CurrentLog<ToolsetLog>) {
  return functionTools(bfclToolset(), log);
}

/** BFCL-shaped functions as tools for our agent, each answered by `log`. */
export function functionTools(functions: BfclFunction[], log: CurrentLog<FunctionCallLog>) {
  return functions.map((fn) =>
    defineTool({
      name: fn.name,
      description: fn.description,
      input_schema: fn.parameters as JsonSchemaObject,
      execute: (args) => log.current.call(fn.name, args as JsonObject),
    }),
  );
}

/** How our agent runs row 8. */
export interface ToolsetRunOptions {
  /** `strictTools` on the OpenAI provider (strict function tools, schemas that accept `$ref`). */
  strictTools?: boolean;
}

/**
 * Our agent with row 8's 29 BFCL functions as tools (each writing to `log`), on the OpenAI
 * adapter pointed at a scripted server, made once: returns a function that runs the task.
 */
export function mtpxToolsetRunner(
  serverUrl: string,
  task: string,
  log: CurrentLog<ToolsetLog>,
  options: ToolsetRunOptions = {},
): () => Promise<string> {
  const tools = bfclTools(log);
  const agent = createAgent({
    provider: createOpenAIProvider({
      model: 'scripted-model',
      apiKey: 'test',
      baseURL: `${serverUrl}/v1`,
      maxRetries: 0,
      strictTools: options.strictTools ?? false,
    }),
    tools,
  });
  return async () => (await agent.run(task)).finalText;
}

/**
 * The Vercel AI SDK (`ai` 6, `@ai-sdk/openai-compatible`) with the same 29 functions and
 * schemas, pointed at a scripted server, made once: returns a function that runs the task.
 */
export function vercelToolsetRunner(
  serverUrl: string,
  task: string,
  log: CurrentLog<ToolsetLog>,
): () => Promise<string> {
  return vercelFunctionsRunner(serverUrl, task, bfclToolset(), log);
}

/**
 * The Vercel AI SDK (`ai` 6) with `functions`, every schema on every request, pointed at a
 * scripted server, made once: returns a function that runs the task.
 */
export function vercelFunctionsRunner(
  serverUrl: string,
  task: string,
  functions: BfclFunction[],
  log: CurrentLog<FunctionCallLog>,
): () => Promise<string> {
  const tools: ToolSet = {};
  for (const fn of functions) {
    tools[fn.name] = tool({
      description: fn.description,
      inputSchema: jsonSchema<JsonObject>(fn.parameters as JsonSchemaObject),
      execute: async (args) => log.current.call(fn.name, args),
    });
  }
  const model = createOpenAICompatible({
    name: 'scripted',
    baseURL: `${serverUrl}/v1`,
    apiKey: 'test',
    includeUsage: true,
  }).chatModel('scripted-model');
  return async () =>
    (await generateText({ model, prompt: task, tools, stopWhen: stepCountIs(10), maxRetries: 0 }))
      .text;
}
