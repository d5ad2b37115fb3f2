import { type ToolContext, ToolExecutionError } from '@mtpx/executor';
import type { JsonValue, ToolCall, ToolOutput } from '@mtpx/protocol';
import type { ModelMessage, Schema, ToolExecutionOptions } from 'ai';
import { fromModelOutput } from './model-output';

/**
 * The `message` of the `call-progress` an AI SDK tool reports for each preliminary output
 * of a streaming (`async *execute`) tool; the output is the progress `data`.
 * `toUIMessageStream` sends it as a preliminary `tool-output-available`.
 */
export const PRELIMINARY_OUTPUT_MESSAGE = 'ai-sdk:preliminary-output';

/** The AI SDK tool fields this module runs. */
export interface RunnableAiSdkTool {
  execute: (input: never, options: ToolExecutionOptions) => unknown;
  toModelOutput?: (options: { toolCallId: string; input: never; output: never }) => unknown;
}

/** How one AI SDK tool is run inside an executor tool. */
export interface AiSdkToolRunner {
  name: string;
  tool: RunnableAiSdkTool;
  inputSchema: Schema<unknown>;
  outputSchema: Schema<unknown> | undefined;
  messages: ((call: ToolCall) => ModelMessage[] | undefined) | undefined;
  context: unknown;
}

/**
 * Runs an AI SDK tool's `execute` as the AI SDK would: input parsed by its own schema
 * (zod defaults and transforms apply), `{ toolCallId, messages, abortSignal }`, every
 * value of an async-iterable result but the last reported as a preliminary output, and the
 * output handed to `toModelOutput` when the tool has one.
 */
export async function runAiSdkTool(
  runner: AiSdkToolRunner,
  args: unknown,
  context: ToolContext,
): Promise<JsonValue | ToolOutput> {
  const input = await parsed(runner.name, runner.inputSchema, args, 'input');
  const options: ToolExecutionOptions = {
    toolCallId: context.call.id,
    messages: runner.messages?.(context.call) ?? [],
    abortSignal: context.signal,
    ...(runner.context === undefined ? {} : { experimental_context: runner.context }),
  };
  const returned = runner.tool.execute(input as never, options);
  const output = isAsyncIterable(returned)
    ? await lastOf(returned, context)
    : await Promise.resolve(returned);
  if (runner.outputSchema?.validate !== undefined) {
    await parsed(runner.name, runner.outputSchema, output, 'output');
  }
  if (runner.tool.toModelOutput !== undefined) {
    const modelOutput = await runner.tool.toModelOutput({
      toolCallId: context.call.id,
      input: input as never,
      output: output as never,
    });
    return fromModelOutput(runner.name, modelOutput);
  }
  return (output === undefined ? null : output) as JsonValue;
}

async function parsed(
  name: string,
  schema: Schema<unknown>,
  value: unknown,
  what: 'input' | 'output',
): Promise<unknown> {
  if (schema.validate === undefined) return value;
  const result = await schema.validate(value);
  if (result.success) return result.value;
  const reason = result.error instanceof Error ? result.error.message : String(result.error);
  throw new ToolExecutionError({
    code: what === 'input' ? 'invalid_arguments' : 'tool_error',
    message:
      what === 'input'
        ? `Invalid arguments for "${name}": ${reason}`
        : `The output of "${name}" does not match its outputSchema: ${reason}`,
    cause: result.error,
  });
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

/**
 * The last value of a streaming tool (its output), each value reported as a preliminary
 * output as it comes, as the AI SDK's `executeTool` does.
 */
async function lastOf(values: AsyncIterable<unknown>, context: ToolContext): Promise<unknown> {
  let last: unknown;
  for await (const value of values) {
    context.reportProgress({ message: PRELIMINARY_OUTPUT_MESSAGE, data: toJson(value) });
    last = value;
    // The executor answers a timed-out or cancelled call itself; stop pulling values too.
    if (context.signal.aborted) break;
  }
  if (context.signal.aborted) throw context.signal.reason;
  return last;
}

function toJson(value: unknown): JsonValue {
  return (value === undefined ? null : value) as JsonValue;
}
