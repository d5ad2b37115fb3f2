import type { GetPromptResult } from '@modelcontextprotocol/server';
import type { JsonObject } from '@mtpx/protocol';
import { McpAdapterError } from '../errors';
import type { InputRoundHook } from '../input/input-round';
import type { McpIcon } from './mcp-listing';
import type { McpCompleter } from './mcp-resource-template';

/** One message of a prompt; a string `content` is a text block. */
export interface McpPromptMessage {
  role: 'user' | 'assistant';
  content: string | { type: 'text'; text: string } | JsonObject;
}

/** What a prompt produces: its messages, optionally with a description. */
export type McpPromptResult =
  | McpPromptMessage[]
  | { description?: string; messages: McpPromptMessage[] };

/** One argument a prompt takes (prompt arguments are strings). */
export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
  /** Suggests values as the user types (`completion/complete` with `ref/prompt`). */
  complete?: McpCompleter;
}

/** A prompt served over MCP. Give `get`, or `inputRound` for a prompt that asks for input. */
export interface McpPromptDefinition {
  name: string;
  title?: string;
  description?: string;
  icons?: McpIcon[];
  arguments?: McpPromptArgument[];
  /** Builds the messages in one go. */
  get?: (args: Record<string, string>) => McpPromptResult | Promise<McpPromptResult>;
  /** An input-round hook: may ask the client for input before returning `complete(messages)`. */
  inputRound?: InputRoundHook<Record<string, string>, McpPromptResult>;
  /** @deprecated Use `inputRound`; removed in the next minor. */
  round?: InputRoundHook<Record<string, string>, McpPromptResult>;
}

/**
 * Defines a prompt to serve with `createMcpServer({ prompts })`.
 *
 * @example
 * ```ts source="../mcp.examples.ts#defineMcpPrompt"
 * const review = defineMcpPrompt({
 *   name: 'review',
 *   arguments: [{ name: 'language', required: true }],
 *   get: ({ language }) => [{ role: 'user', content: `Review this ${language} code.` }],
 * });
 * ```
 */
export function defineMcpPrompt(definition: McpPromptDefinition): McpPromptDefinition {
  if (
    definition.get === undefined &&
    definition.inputRound === undefined &&
    definition.round === undefined
  ) {
    throw new McpAdapterError({
      code: 'adapter_error',
      message: `Prompt ${definition.name} needs a get(args) or an inputRound(args, context) function.`,
    });
  }
  return definition;
}

/** The hook the server runs for a prompt: its own input-round hook, or `get` wrapped as one round. */
export function promptHook(
  definition: McpPromptDefinition,
): InputRoundHook<Record<string, string>, McpPromptResult> {
  const hook = definition.inputRound ?? definition.round;
  if (hook !== undefined) return hook;
  const get = definition.get;
  return async (args) => ({
    type: 'complete',
    value: await (get as NonNullable<typeof get>)(args),
  });
}

/** A prompt's result in MCP's `GetPromptResult` shape. */
export function toGetPromptResult(result: McpPromptResult): GetPromptResult {
  const { description, messages } = Array.isArray(result)
    ? { description: undefined, messages: result }
    : result;
  return {
    ...(description !== undefined && { description }),
    messages: messages.map((message) => ({
      role: message.role,
      content: (typeof message.content === 'string'
        ? { type: 'text', text: message.content }
        : message.content) as GetPromptResult['messages'][number]['content'],
    })),
  };
}
