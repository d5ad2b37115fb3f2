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

/** `generateText` with tools, looping until the model answers (row 3). Resolves with the text. */
export async function vercelGenerate(
  serverUrl: string,
  task: string,
  log: ToolLog,
): Promise<string> {
  const result = await generateText({
    model: scriptedModel(serverUrl),
    prompt: task,
    tools: vercelTools(log),
    stopWhen: stepCountIs(10),
    maxRetries: 0,
  });
  return result.text;
}

/** `streamText` with tools, looping until the model answers (row 4). Resolves with the text. */
export async function vercelStream(serverUrl: string, task: string, log: ToolLog): Promise<string> {
  const result = streamText({
    model: scriptedModel(serverUrl),
    prompt: task,
    tools: vercelTools(log),
    stopWhen: stepCountIs(10),
    maxRetries: 0,
  });
  await result.consumeStream();
  return result.text;
}
