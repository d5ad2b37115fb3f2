import type { Message, ToolArguments, ToolSpec } from '@mtpx/protocol';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  dropNullOptionals,
  type OpenAIStrictParameters,
  openAIStrictParameters,
} from '../strict-schemas/openai-strict-parameters';
import type { ToolNameMapping } from '../tool-names';
import { replayOpenAIParts } from './openai-parts';

/**
 * The conversation as Chat Completions messages. Tool results go back as
 * `{ role: "tool", tool_call_id, content }`, the shape of the native tool-call syntax;
 * tool names in earlier assistant turns are mapped like the tools themselves. A call
 * whose arguments were not valid JSON is sent back with the model's own text. With a
 * `service`, each assistant turn that service made gets its reasoning fields
 * (`reasoning_content`, `reasoning`, `reasoning_details`) and each call its
 * `extra_content` back; parts of other services are never sent.
 */
export function toOpenAIMessages(
  messages: readonly Message[],
  names: ToolNameMapping,
  service?: string,
): ChatCompletionMessageParam[] {
  return messages.map((message) => toOpenAIMessage(message, names, service));
}

function toOpenAIMessage(
  message: Message,
  names: ToolNameMapping,
  service: string | undefined,
): ChatCompletionMessageParam {
  if (message.role === 'system') return { role: 'system', content: message.content };
  if (message.role === 'user') return { role: 'user', content: message.content };
  if (message.role === 'tool') {
    return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
  }
  const toolCalls = message.tool_calls ?? [];
  const assistant: ChatCompletionAssistantMessageParam = {
    role: 'assistant',
    content: message.content ?? (toolCalls.length > 0 ? null : ''),
  };
  if (toolCalls.length > 0) {
    assistant.tool_calls = toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: {
        name: names.toProvider(call.name),
        arguments: call.raw_arguments ?? JSON.stringify(call.arguments),
      },
    }));
  }
  if (service !== undefined) replayOpenAIParts(assistant, message, service);
  return assistant;
}

/**
 * MTP tool specs as Chat Completions function tools, under their wire names. With
 * `strict`, each tool whose schema can be made to fit OpenAI's strict subset (see
 * {@link openAIStrictParameters}: objects closed, optional properties required but
 * nullable) is sent that way with `strict: true`; any other is sent as it is, without
 * `strict`, so one schema strict mode refuses never fails the request.
 */
export function toOpenAITools(
  tools: readonly ToolSpec[],
  names: ToolNameMapping,
  strict = false,
): ChatCompletionFunctionTool[] {
  return tools.map((tool) => {
    const name = names.toProvider(tool.name);
    const converted = strict ? strictParametersOf(tool) : undefined;
    if (converted !== undefined) {
      return {
        type: 'function',
        function: {
          name,
          description: tool.description,
          parameters: converted.schema,
          strict: true,
        },
      };
    }
    return {
      type: 'function',
      function: { name, description: tool.description, parameters: tool.input_schema },
    };
  });
}

const strictParameters = new WeakMap<object, OpenAIStrictParameters | null>();

/** A tool's strict parameters (computed once per schema object), or `undefined`. */
export function strictParametersOf(tool: ToolSpec): OpenAIStrictParameters | undefined {
  let converted = strictParameters.get(tool.input_schema);
  if (converted === undefined) {
    converted = openAIStrictParameters(tool.input_schema) ?? null;
    strictParameters.set(tool.input_schema, converted);
  }
  return converted ?? undefined;
}

/**
 * For strict tools: the function that removes, from a call's parsed arguments, the `null`s
 * strict mode made the model write for optional properties it left out (by MTP tool name).
 */
export function strictArgumentsMapper(
  tools: readonly ToolSpec[],
): ((toolName: string, args: ToolArguments) => ToolArguments) | undefined {
  const byName = new Map<string, OpenAIStrictParameters>();
  for (const tool of tools) {
    const converted = strictParametersOf(tool);
    if (converted !== undefined) byName.set(tool.name, converted);
  }
  if (byName.size === 0) return undefined;
  return (toolName, args) => {
    const converted = byName.get(toolName);
    return converted === undefined ? args : dropNullOptionals(args, converted);
  };
}
