import type { AssistantMessage, Message, ToolSpec } from '@mtpx/protocol';
import { strictParametersOf } from '../openai/openai-request';
import type { ToolNameMapping } from '../tool-names';
import { ownParts, type ResponsesItem, responseIdOf } from './responses-parts';

type InputItem = Record<string, unknown>;

/** How the conversation is sent. */
export interface ResponsesInputOptions {
  names: ToolNameMapping;
  /** The service whose parts are replayed (the preset name). */
  service: string;
  /** `store` of the request: stored items go back by reference, others whole. */
  store: boolean;
}

/**
 * The conversation as Responses input items. User and system messages as messages, tool
 * results as `function_call_output` (answering the call's `call_id`). An assistant turn
 * this adapter made goes back as the output items it was, in their original order: each
 * reasoning item right before the item that followed it (the API refuses a reasoning
 * item without its following item, and a function call without its reasoning item).
 * Reasoning and server-run items go back by `item_reference` when `store` is true, whole
 * (with their `encrypted_content`) when it is false; messages and function calls whole.
 * Any other assistant turn goes back as text and `function_call` items.
 */
export function toResponsesInput(
  messages: readonly Message[],
  options: ResponsesInputOptions,
): InputItem[] {
  return messages.flatMap((message): InputItem[] => {
    if (message.role === 'system') return [{ role: 'system', content: message.content }];
    if (message.role === 'user') return [{ role: 'user', content: message.content }];
    if (message.role === 'tool') {
      return [
        { type: 'function_call_output', call_id: message.tool_call_id, output: message.content },
      ];
    }
    return assistantItems(message, options);
  });
}

function assistantItems(message: AssistantMessage, options: ResponsesInputOptions): InputItem[] {
  const { names, store } = options;
  const calls = message.tool_calls ?? [];
  const functionCall = (call: (typeof calls)[number]): InputItem => ({
    type: 'function_call',
    call_id: call.id,
    name: names.toProvider(call.name),
    arguments: call.raw_arguments ?? JSON.stringify(call.arguments),
  });
  const parts = ownParts(message, options.service)
    .filter((part) => part.index !== undefined)
    .sort((a, b) => (a.index as number) - (b.index as number));
  if (parts.length === 0) {
    const items: InputItem[] = [];
    if (message.content) items.push({ role: 'assistant', content: message.content });
    return [...items, ...calls.map(functionCall)];
  }
  const items: InputItem[] = [];
  const replayed = new Set<string>();
  for (const part of parts) {
    const item = part.data as unknown as ResponsesItem;
    if (item.type === 'function_call') {
      const call = calls.find((candidate) => candidate.id === item.call_id);
      if (call === undefined) continue;
      replayed.add(call.id);
      // The item as the API sent it (its `id` pairs it with the reasoning before it).
      items.push({ ...item, name: names.toProvider(call.name) });
      continue;
    }
    const referable = typeof item.id === 'string' && item.type !== 'message';
    const whole = !store || !referable || item.type === 'compaction';
    items.push(whole ? item : { type: 'item_reference', id: item.id });
  }
  for (const call of calls) if (!replayed.has(call.id)) items.push(functionCall(call));
  return items;
}

/**
 * With `previous_response_id`: the id of the last assistant turn this adapter made for
 * `service`, and the messages after it (what the stored response does not hold yet).
 */
export function chainedInput(
  messages: readonly Message[],
  service: string,
): { previousResponseId: string; messages: readonly Message[] } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    const id = responseIdOf(message, service);
    if (id === undefined) return undefined;
    return { previousResponseId: id, messages: messages.slice(index + 1) };
  }
  return undefined;
}

/**
 * MTP tool specs as Responses function tools, under their wire names. `strict` is always
 * sent: the API's default is `true`, which refuses a schema outside the strict subset.
 * With `strict`, a tool whose schema can be made to fit is sent that way with
 * `strict: true` (optional properties required but nullable), any other with `strict: false`.
 */
export function toResponsesTools(
  tools: readonly ToolSpec[],
  names: ToolNameMapping,
  strict: boolean,
): InputItem[] {
  return tools.map((tool) => {
    const name = names.toProvider(tool.name);
    const converted = strict ? strictParametersOf(tool) : undefined;
    return {
      type: 'function',
      name,
      description: tool.description,
      parameters: converted === undefined ? tool.input_schema : converted.schema,
      strict: converted !== undefined,
    };
  });
}
