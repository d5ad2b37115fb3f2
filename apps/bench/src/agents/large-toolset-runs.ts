import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import type { JsonObject, JsonSchemaObject } from '@mtpx/protocol';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import { generateText, jsonSchema, stepCountIs, type ToolSet, tool } from 'ai';
import type { CurrentLog } from './agent-variant';
import { largeToolset } from './github-mcp-tools';
import type { LargeToolsetLog } from './large-toolset-log';

/**
 * Our agent with row 9's 146 tools (each writing to `log`) on the OpenAI adapter pointed
 * at a scripted server, made once; `toolSearch` defers every tool behind the search tool.
 */
export function mtpxLargeToolsetRunner(
  serverUrl: string,
  task: string,
  log: CurrentLog<LargeToolsetLog>,
  options: { toolSearch: boolean },
): () => Promise<string> {
  const tools = largeToolset().map((fn) =>
    defineTool({
      name: fn.name,
      description: fn.description,
      input_schema: fn.parameters as JsonSchemaObject,
      execute: (args) => log.current.call(fn.name, args as JsonObject),
    }),
  );
  const agent = createAgent({
    provider: createOpenAIProvider({
      model: 'scripted-model',
      apiKey: 'test',
      baseURL: `${serverUrl}/v1`,
      maxRetries: 0,
    }),
    tools,
    toolSearch: options.toolSearch,
  });
  return async () => (await agent.run(task)).finalText;
}

/** The Vercel AI SDK (`ai` 6) with the same 146 tools, every schema on every request. */
export function vercelLargeToolsetRunner(
  serverUrl: string,
  task: string,
  log: CurrentLog<LargeToolsetLog>,
): () => Promise<string> {
  const tools: ToolSet = {};
  for (const fn of largeToolset()) {
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
