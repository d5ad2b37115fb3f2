import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import type { AssistantMessage, Message, ToolSpec } from '@mtpx/protocol';
import type { ToolNameMapping } from '@mtpx/providers';
import { ownParts, providerOptionsOf } from './turn-parts';

type AssistantContent = Extract<LanguageModelV3Message, { role: 'assistant' }>['content'];
type AssistantPart = AssistantContent[number];

const withOptions = <T extends object>(
  part: T,
  options: ReturnType<typeof providerOptionsOf>,
): T => (options === undefined ? part : { ...part, providerOptions: options });

/**
 * An assistant turn as AI SDK content parts. A turn this model made is rebuilt from its
 * provider parts, in the order it was written, each reasoning, text and call part with its
 * `providerMetadata` handed back unchanged as `providerOptions`; the calls' names and
 * arguments are the message's own. A turn from another model (or without parts) is its
 * text, then its calls.
 */
function assistantContent(
  message: AssistantMessage,
  service: string,
  names: ToolNameMapping,
): AssistantContent {
  const calls = new Map((message.tool_calls ?? []).map((call) => [call.id, call]));
  const callPart = (id: string, options?: ReturnType<typeof providerOptionsOf>) => {
    const call = calls.get(id);
    if (call === undefined) return [];
    calls.delete(id);
    return [
      withOptions(
        {
          type: 'tool-call' as const,
          toolCallId: call.id,
          toolName: names.toProvider(call.name),
          input: call.arguments,
        },
        options,
      ),
    ];
  };
  const own = ownParts(message.provider_parts, service);
  const texts = own.filter((part) => part.type === 'text');
  const keptText = texts
    .map((part) => String((part.data as { text?: unknown }).text ?? ''))
    .join('');
  // The kept text parts stand for the content only while the content is what they hold.
  const useKeptText = texts.length > 0 && keptText === (message.content ?? '');
  const content: AssistantPart[] = [];
  if (!useKeptText && message.content) content.push({ type: 'text', text: message.content });
  for (const part of own) {
    const options = providerOptionsOf(part);
    const data = (part.data ?? {}) as Record<string, unknown>;
    switch (part.type) {
      case 'reasoning':
        content.push(withOptions({ type: 'reasoning', text: String(data.text ?? '') }, options));
        break;
      case 'text':
        if (useKeptText)
          content.push(withOptions({ type: 'text', text: String(data.text ?? '') }, options));
        break;
      case 'tool-call':
        content.push(...callPart(part.call_id ?? '', options));
        break;
      case 'provider-tool-call': {
        const recorded = (data.part ?? {}) as Record<string, unknown>;
        const input =
          typeof recorded.input === 'string' ? safeJson(recorded.input) : recorded.input;
        content.push(
          withOptions(
            {
              type: 'tool-call',
              toolCallId: String(recorded.toolCallId ?? ''),
              toolName: String(recorded.toolName ?? ''),
              input,
              providerExecuted: true,
            },
            recorded.providerMetadata as ReturnType<typeof providerOptionsOf>,
          ),
        );
        break;
      }
      case 'provider-tool-result': {
        const recorded = (data.part ?? {}) as Record<string, unknown>;
        const result = recorded.result ?? null;
        content.push(
          withOptions(
            {
              type: 'tool-result',
              toolCallId: String(recorded.toolCallId ?? ''),
              toolName: String(recorded.toolName ?? ''),
              output:
                recorded.isError === true
                  ? { type: 'error-json', value: result as never }
                  : { type: 'json', value: result as never },
            },
            recorded.providerMetadata as ReturnType<typeof providerOptionsOf>,
          ),
        );
        break;
      }
      default:
        break;
    }
  }
  for (const id of [...calls.keys()]) content.push(...callPart(id));
  return content;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * MTPX messages as an AI SDK prompt (`LanguageModelV3Prompt`): system and user messages as
 * they are, each assistant turn with the parts its model needs back, and the tool
 * messages that follow a turn as one `tool` message of `tool-result`s (`error-text` for a
 * failure).
 */
export function promptFromMessages(
  messages: readonly Message[],
  service: string,
  names: ToolNameMapping,
): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  for (const message of messages) {
    if (message.role === 'system') prompt.push({ role: 'system', content: message.content });
    else if (message.role === 'user') {
      prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
    } else if (message.role === 'assistant') {
      prompt.push({ role: 'assistant', content: assistantContent(message, service, names) });
    } else {
      const result: LanguageModelV3ToolResultPart = {
        type: 'tool-result',
        toolCallId: message.tool_call_id,
        toolName: names.toProvider(message.name),
        output: { type: message.is_error ? 'error-text' : 'text', value: message.content },
      };
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(result);
      else prompt.push({ role: 'tool', content: [result] });
    }
  }
  return prompt;
}

/** MTPX tool specs as AI SDK function tools (`strict` when the provider is told to use it). */
export function functionTools(
  tools: readonly ToolSpec[],
  names: ToolNameMapping,
  strict: boolean,
): LanguageModelV3FunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: names.toProvider(tool.name),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.input_schema as LanguageModelV3FunctionTool['inputSchema'],
    ...(strict ? { strict: true } : {}),
  }));
}
