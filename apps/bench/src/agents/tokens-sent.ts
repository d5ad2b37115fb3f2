import { countTokens as claudeTokens } from '@anthropic-ai/tokenizer';
import { isJsonObject, type JsonObject, type JsonValue, safeParseJson } from '@mtpx/protocol';
import { countTokens } from 'gpt-tokenizer';

/** A request a scripted model server received (the shape both servers record). */
export interface RecordedBody {
  body: unknown;
}

/**
 * What Anthropic adds to every request that carries tools, before the tools themselves:
 * the tool-use system prompt, 346 tokens with `tool_choice` auto or none for the Claude 4
 * models (Anthropic's tool-use pricing table). The same for every framework, so it
 * narrows ratios toward 1; it is part of what a user pays.
 */
export const ANTHROPIC_TOOL_USE_SYSTEM_TOKENS = 346;

/** How many distinct request texts each tokenizer remembers (a run sends a few dozen). */
const MEMO_TEXTS = 256;

/**
 * A tokenizer that remembers its counts by text: every repetition of a scripted run sends
 * the same requests, each tens of kilobytes of tool schemas, and counting is the bulk of
 * row 9's time. At most {@link MEMO_TEXTS} texts, forgotten all at once beyond that.
 */
function remembered(count: (text: string) => number): (text: string) => number {
  const counts = new Map<string, number>();
  return (text) => {
    let tokens = counts.get(text);
    if (tokens === undefined) {
      if (counts.size >= MEMO_TEXTS) counts.clear();
      tokens = count(text);
      counts.set(text, tokens);
    }
    return tokens;
  };
}
const openAiTokens = remembered(countTokens);
const anthropicTokens = remembered(claudeTokens);

/**
 * The tokens a run sent to the model: for each request, the o200k_base tokens (GPT-4o's
 * tokenizer) of the JSON text of its `messages` and `tools`, added up. An approximation of
 * billed prompt tokens — a provider also counts a few tokens of framing per message — but
 * the same rule for every variant, so the ratios hold.
 */
export function tokensSent(requests: readonly RecordedBody[]): number {
  let total = 0;
  for (const { body } of requests) {
    if (!isJsonObject(body)) continue;
    total += openAiTokens(JSON.stringify({ messages: body.messages, tools: body.tools ?? [] }));
  }
  return total;
}

/**
 * The same requests counted by Anthropic's rules: each Chat Completions body recorded by
 * the scripted server is rewritten as the Messages API body it stands for — system
 * messages as the top-level `system`, tool calls as `tool_use` blocks, results as
 * `tool_result` blocks in a user turn, tools as `{name, description, input_schema}`
 * (strict tools keep `strict`) — and its JSON is counted with Anthropic's public tokenizer
 * (`@anthropic-ai/tokenizer`), plus {@link ANTHROPIC_TOOL_USE_SYSTEM_TOKENS} per request
 * with tools. Anthropic has published no tokenizer for its current models, so this is an
 * estimate; like {@link tokensSent}, it is one rule for every variant.
 */
export function anthropicTokensSent(requests: readonly RecordedBody[]): number {
  let total = 0;
  for (const { body } of requests) {
    if (!isJsonObject(body)) continue;
    const messagesBody = asAnthropicBody(body);
    total += anthropicTokens(JSON.stringify(messagesBody));
    if (Array.isArray(messagesBody.tools) && messagesBody.tools.length > 0) {
      total += ANTHROPIC_TOOL_USE_SYSTEM_TOKENS;
    }
  }
  return total;
}

type Block = JsonObject;

/** A Chat Completions body as the Messages API body it stands for (see {@link anthropicTokensSent}). */
export function asAnthropicBody(body: JsonObject): JsonObject {
  const system: string[] = [];
  const turns: Array<{ role: 'user' | 'assistant'; content: Block[] }> = [];
  const turn = (role: 'user' | 'assistant') => {
    const last = turns.at(-1);
    if (last?.role === role) return last.content;
    const content: Block[] = [];
    turns.push({ role, content });
    return content;
  };
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages) {
    if (!isJsonObject(message)) continue;
    const text = typeof message.content === 'string' ? message.content : '';
    if (message.role === 'system') system.push(text);
    else if (message.role === 'user') turn('user').push({ type: 'text', text });
    else if (message.role === 'tool') {
      turn('user').push({
        type: 'tool_result',
        tool_use_id: message.tool_call_id ?? '',
        content: text,
      });
    } else if (message.role === 'assistant') {
      const content = turn('assistant');
      if (text !== '') content.push({ type: 'text', text });
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      for (const call of calls) {
        if (!isJsonObject(call) || !isJsonObject(call.function)) continue;
        const parsed = safeParseJson(String(call.function.arguments ?? '{}'));
        content.push({
          type: 'tool_use',
          id: call.id ?? '',
          name: call.function.name ?? '',
          input: parsed.ok ? parsed.value : {},
        });
      }
    }
  }
  const tools = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool): JsonValue[] => {
    if (!isJsonObject(tool) || !isJsonObject(tool.function)) return [];
    const { name, description, parameters, strict } = tool.function;
    return [
      {
        name: name ?? '',
        ...(description === undefined ? {} : { description }),
        input_schema: parameters ?? { type: 'object' },
        ...(strict === true ? { strict } : {}),
      },
    ];
  });
  return {
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    messages: turns.map(({ role, content }) => ({ role, content })),
    tools,
  };
}
