import { createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import type { CurrentLog } from './agent-variant';
import {
  type CalculatorOperation,
  calculatorOperations,
  calculatorSchema,
  lookupSchema,
} from './scenario-tools';

/** The task's tools for our agent, doing the Vercel AI SDK's tools' work (through `log`). */
function mtpxTools(log: CurrentLog) {
  const calculators = (Object.keys(calculatorOperations) as CalculatorOperation[]).map(
    (operation) =>
      defineTool({
        name: `calculator.${operation}`,
        description: `${operation} two numbers`,
        input_schema: structuredClone(calculatorSchema),
        execute: (args) => log.current.calculate(operation, args.a as number, args.b as number),
      }),
  );
  const lookup = defineTool({
    name: 'lookup',
    description: 'Look up a fact.',
    input_schema: structuredClone(lookupSchema),
    execute: (args) => log.current.lookup(args.topic as string),
  });
  return [...calculators, lookup];
}

/** How our agent runs the task. */
export interface MtpxRunOptions {
  /** `agent.stream` (row 4) instead of `agent.run` (row 3). */
  stream: boolean;
  /** In streamed runs, start each call as soon as it is complete (default) or after the stream ends. */
  eagerDispatch?: boolean;
}

/**
 * Our agent (`@mtpx/agent` on `@mtpx/providers/openai`, the `openai` SDK underneath)
 * pointed at a scripted server, made once: returns a function that runs the task and
 * resolves with the final text.
 */
export function mtpxRunner(
  serverUrl: string,
  task: string,
  log: CurrentLog,
  options: MtpxRunOptions,
): () => Promise<string> {
  const agent = createAgent({
    provider: createOpenAIProvider({
      model: 'scripted-model',
      apiKey: 'test',
      baseURL: `${serverUrl}/v1`,
      maxRetries: 0,
    }),
    tools: mtpxTools(log),
    eagerDispatch: options.eagerDispatch ?? true,
  });
  return async () => {
    const output = options.stream ? await agent.stream(task).result : await agent.run(task);
    return output.final_text;
  };
}
