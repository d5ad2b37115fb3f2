import type Anthropic from '@anthropic-ai/sdk';
import type { Message, ToolSpec } from '@mtpx/protocol';
import {
  ANTHROPIC_STRICT_LIMITS,
  anthropicStrictSchemaIssues,
} from '../strict-schemas/anthropic-strict-schema';
import { closeObjectSchemas } from '../strict-schemas/close-object-schemas';
import type { ToolNameMapping } from '../tool-names';
import { anthropicAssistantContent } from './anthropic-parts';

type ContentBlock = Anthropic.ContentBlockParam;

/** The conversation in the Messages API's shape: a top-level `system` and alternating turns. */
export interface AnthropicConversation {
  system: string | undefined;
  messages: Anthropic.MessageParam[];
}

/**
 * The conversation as Messages API turns:
 * - system messages become the top-level `system` (joined by blank lines, in order);
 * - assistant tool calls become `tool_use` blocks (names mapped like the tools), with the
 *   turn's own Anthropic blocks (thinking with its signature, redacted thinking, server
 *   tool blocks) back in their original order;
 * - tool messages become `tool_result` blocks (with `is_error` on failures) in the next
 *   user message: consecutive results, and user text that follows them, share one;
 * - an assistant turn with neither text nor calls is left out (the API refuses empty turns).
 */
export function toAnthropicConversation(
  messages: readonly Message[],
  names: ToolNameMapping,
): AnthropicConversation {
  const system: string[] = [];
  const turns: Array<{ role: 'user' | 'assistant'; content: ContentBlock[] }> = [];
  const userTurn = () => {
    const last = turns.at(-1);
    if (last?.role === 'user') return last.content;
    const content: ContentBlock[] = [];
    turns.push({ role: 'user', content });
    return content;
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(message.content);
        break;
      case 'user':
        userTurn().push({ type: 'text', text: message.content });
        break;
      case 'tool':
        userTurn().push({
          type: 'tool_result',
          tool_use_id: message.tool_call_id,
          content: message.content,
          ...(message.is_error ? { is_error: true } : {}),
        });
        break;
      case 'assistant': {
        const content = anthropicAssistantContent(message, names);
        if (content.length > 0) turns.push({ role: 'assistant', content });
        break;
      }
    }
  }
  return {
    system: system.length > 0 ? system.join('\n\n') : undefined,
    // A turn that is one text block is sent as a plain string, as people write it.
    messages: turns.map(({ role, content }) => {
      const [only] = content;
      return content.length === 1 && only?.type === 'text'
        ? { role, content: only.text }
        : { role, content };
    }),
  };
}

/**
 * MTP tool specs as Messages API tools, under their wire names. With `strict`, tools are
 * marked `strict: true` in order while the request stays within Anthropic's limits
 * (Anthropic's strict limits: 20 strict tools, 24 optional and 16 union-typed
 * parameters across them) and each schema, its objects closed, fits the supported subset
 * (see {@link anthropicStrictSchemaIssues}); the others are sent as they are, without
 * `strict`, so the request is never refused for its schemas.
 */
export function toAnthropicTools(
  tools: readonly ToolSpec[],
  names: ToolNameMapping,
  strict = false,
): Anthropic.Tool[] {
  const spent = { tools: 0, optionalParameters: 0, unionParameters: 0 };
  return tools.map((tool) => {
    const name = names.toProvider(tool.name);
    if (strict && spent.tools < ANTHROPIC_STRICT_LIMITS.tools) {
      const closed = closeObjectSchemas(tool.input_schema);
      const { issues, cost } = anthropicStrictSchemaIssues(closed);
      const fits =
        spent.optionalParameters + cost.optionalParameters <=
          ANTHROPIC_STRICT_LIMITS.optionalParameters &&
        spent.unionParameters + cost.unionParameters <= ANTHROPIC_STRICT_LIMITS.unionParameters;
      if (issues.length === 0 && fits) {
        spent.tools += 1;
        spent.optionalParameters += cost.optionalParameters;
        spent.unionParameters += cost.unionParameters;
        return {
          name,
          description: tool.description,
          input_schema: closed as Anthropic.Tool.InputSchema,
          strict: true,
        };
      }
    }
    return {
      name,
      description: tool.description,
      input_schema: tool.input_schema as Anthropic.Tool.InputSchema,
    };
  });
}
