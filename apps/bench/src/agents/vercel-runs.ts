import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, type ToolSet, tool } from 'ai';
import type { CurrentLog } from './agent-variant';
import {
  type CalculatorOperation,
  calculatorOperations,
  calculatorSchema,
  lookupSchema,
} from './scenario-tools';

/** The Vercel AI SDK's OpenAI-compatible model, pointed at a scripted server. */
function scriptedModel(serverUrl: string) {
  const provider = createOpenAICompatible({
    name: 'scripted',
    baseURL: `${serverUrl}/v1`,
    apiKey: 'test',
    includeUsage: true,
  });
  return provider.chatModel('scripted-model');
}

/** The task's tools for the Vercel AI SDK, doing our tools' work (through `log`). */
function vercelTools(log: CurrentLog): ToolSet {
  const tools: ToolSet = {};
  for (const operation of Object.keys(calculatorOperations) as CalculatorOperation[]) {
    tools[`calculator_${operation}`] = tool({
      description: `${operation} two numbers`,
      inputSchema: jsonSchema<{ a: number; b: number }>(calculatorSchema),
      execute: async ({ a, b }) => log.current.calculate(operation, a, b),
    });
  }
  tools.lookup = tool({
    description: 'Look up a fact.',
    inputSchema: jsonSchema<{ topic: string }>(lookupSchema),
    execute: ({ topic }) => log.current.lookup(topic),
  });
  return tools;
}

/** How the Vercel AI SDK runs the task: `generateText` (row 3) or `streamText` (row 4). */
export interface VercelRunOptions {
  stream: boolean;
}

/**
 * The Vercel AI SDK (`ai` 6 with `@ai-sdk/openai-compatible`) pointed at a scripted
 * server, made once: returns a function that runs the task, looping over tool calls until
 * the model answers, and resolves with the final text.
 */
export function vercelRunner(
  serverUrl: string,
  task: string,
  log: CurrentLog,
  options: VercelRunOptions,
): () => Promise<string> {
  const settings = {
    model: scriptedModel(serverUrl),
    prompt: task,
    tools: vercelTools(log),
    stopWhen: stepCountIs(10),
    maxRetries: 0,
  };
  if (!options.stream) return async () => (await generateText(settings)).text;
  return async () => {
    const result = streamText(settings);
    await result.consumeStream();
    return result.text;
  };
}
