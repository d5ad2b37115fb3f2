import type Anthropic from '@anthropic-ai/sdk';
import type { AssistantMessage, JsonValue, ProviderPart } from '@mtpx/protocol';
import type { ToolNameMapping } from '../tool-names';

/** The `provider` tag of the parts the Anthropic adapter keeps. */
export const ANTHROPIC_PART_PROVIDER = 'anthropic';

type ContentBlock = Anthropic.ContentBlockParam;

/**
 * True for a block the API ran itself: `server_tool_use`, `mcp_tool_use` and every
 * `*_tool_result` (`web_search_tool_result`, `mcp_tool_result`, `tool_search_tool_result`, …).
 */
export function isServerToolBlock(type: string): boolean {
  return type === 'server_tool_use' || type === 'mcp_tool_use' || type.endsWith('_tool_result');
}

/** A block as a provider part; `undefined` for `tool_use` (it becomes a tool call). */
export function partFromBlock(block: Record<string, unknown>, index: number): ProviderPart {
  const type = String(block.type);
  const part: ProviderPart = {
    provider: ANTHROPIC_PART_PROVIDER,
    type,
    data: block as JsonValue,
    index,
  };
  if (type === 'thinking' && typeof block.thinking === 'string' && block.thinking !== '') {
    part.text = block.thinking;
  }
  if (isServerToolBlock(type)) {
    const id =
      typeof block.id === 'string'
        ? block.id
        : typeof block.tool_use_id === 'string'
          ? block.tool_use_id
          : undefined;
    part.server_tool = {
      ...(id === undefined ? {} : { id }),
      ...(typeof block.name === 'string' ? { name: block.name } : {}),
    };
  }
  return part;
}

/**
 * The parts a turn keeps: every block but `tool_use`, at its index. Text blocks are kept
 * only when the turn has other parts: then the blocks' order (thinking first, text with
 * its citations beside a server tool's result) is what the next request must repeat.
 */
export function turnParts(
  blocks: ReadonlyArray<{ index: number; block: Record<string, unknown> }>,
): ProviderPart[] {
  const kept = blocks.filter(({ block }) => block.type !== 'tool_use');
  if (!kept.some(({ block }) => block.type !== 'text')) return [];
  return kept.map(({ block, index }) => partFromBlock(block, index));
}

/**
 * An assistant message as Messages API content blocks. Without Anthropic parts: its
 * text, then its calls as `tool_use`. With them: each part's block at its original
 * index, the calls filling the other places in order, so thinking blocks (with their
 * signatures) come back before the `tool_use` blocks they preceded, as the API requires.
 * Parts of other providers are never sent.
 */
export function anthropicAssistantContent(
  message: AssistantMessage,
  names: ToolNameMapping,
): ContentBlock[] {
  const toolUses: ContentBlock[] = (message.tool_calls ?? []).map((call) => ({
    type: 'tool_use',
    id: call.id,
    name: names.toProvider(call.name),
    input: call.arguments,
  }));
  const parts = (message.provider_parts ?? []).filter(
    (part) => part.provider === ANTHROPIC_PART_PROVIDER && part.index !== undefined,
  );
  if (parts.length === 0) {
    const content: ContentBlock[] = [];
    if (message.content) content.push({ type: 'text', text: message.content });
    return [...content, ...toolUses];
  }
  const byIndex = new Map(parts.map((part) => [part.index as number, part]));
  const last = Math.max(...byIndex.keys());
  const hasText = parts.some((part) => part.type === 'text');
  let textPending = !hasText && message.content ? message.content : undefined;
  const content: ContentBlock[] = [];
  for (let position = 0; position <= last || toolUses.length > 0; position++) {
    const part = byIndex.get(position);
    if (part !== undefined) {
      content.push(part.data as unknown as ContentBlock);
      continue;
    }
    if (textPending !== undefined) {
      content.push({ type: 'text', text: textPending });
      textPending = undefined;
      continue;
    }
    const call = toolUses.shift();
    if (call !== undefined) content.push(call);
  }
  if (textPending !== undefined) content.push({ type: 'text', text: textPending });
  return content;
}
