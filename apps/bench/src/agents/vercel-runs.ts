import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, stepCountIs, streamText, type ToolSet, tool } from 'ai';
import {
  type CalculatorOperation,
  calculatorOperations,
  calculatorSchema,
  lookupSchema,
  type ToolLog,
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

/** The task's tools for the Vercel AI SDK, doing the same work as ours (through `log`). */
function vercelTools(log: ToolLog): ToolSet {
  const tools: ToolSet = {};
  for (const operation of Object.keys(calculatorOperations) as CalculatorOperation[]) {
    tools[`calculator_${operation}`] = tool({
      description: `${operation} two numbers`,
      inputSchema: jsonSchema<{ a: number; b: number }>(calculatorSchema),
      execute: async ({ a, b }) => log.calculate(operation, a, b),
    });
  }
  tools.lookup = tool({
    description: 'Look up a fact.',
    inputSchema: jsonSchema<{ topic: string }>(lookupSchema),
    execute: ({ topic }) => log.lookup(topic),
  });
  return tools;
}

/** How the Vercel AI SDK runs the task: `generateText` (row 3) or `streamText` (row 4). */
export interface VercelRunOptions {
  stream: boolean;
}

/**
 * The Vercel AI SDK (`ai` 6 with `@ai-sdk/openai-compatible`) against a scripted server,
 * looping over tool calls until the model answers: ready to run. Resolves with the text.
 */
export function prepareVercelRun(
  serverUrl: string,
  task: string,
  log: ToolLog,
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
