import { createAgent, type EagerDispatchOption } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import type { CurrentLog } from './agent-variant';
import {
  type CalculatorOperation,
  calculatorOperations,
  calculatorSchema,
  lookupSchema,
} from './scenario-tools';

/**
 * The task's tools for our agent (rows 3 and 4), doing the Vercel AI SDK's tools' work
 * through `log`; with `withWriteTool`, also row 4's `notes.save` write tool.
 */
export function mtpxTools(log: CurrentLog, withWriteTool: boolean) {
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
  const saveNote = defineTool({
    name: 'notes.save',
    description: 'Save a note.',
    risk_level: 'write',
    input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    execute: (args) => log.current.saveNote(args.text as string),
  });
  return withWriteTool ? [...calculators, lookup, saveNote] : [...calculators, lookup];
}

/** How our agent runs the task. */
export interface MtpxRunOptions {
  /** `agent.stream` (row 4) instead of `agent.run` (row 3). */
  stream: boolean;
  /**
   * In streamed runs: `'safe'` (default) starts read-only calls as soon as each is complete
   * and holds write calls until the response has finished; `'all'` starts every call at
   * once; `false` starts them after the stream ends.
   */
  eagerDispatch?: EagerDispatchOption;
  /** Offer the `notes.save` write tool too (row 4's write variant). */
  withWriteTool?: boolean;
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
    tools: mtpxTools(log, options.withWriteTool ?? false),
    eagerDispatch: options.eagerDispatch ?? 'safe',
  });
  return async () => {
    const output = options.stream ? await agent.stream(task).result : await agent.run(task);
    return output.finalText;
  };
}
