import type Anthropic from '@anthropic-ai/sdk';
import type { ToolSpec } from '@mtpx/protocol';
import { ProviderError } from '../provider-error';
import type { ToolNameMapping } from '../tool-names';
import { toAnthropicTools } from './anthropic-request';

/** Which of Anthropic's tool search tools to offer: BM25 (words) or regex (patterns). */
export type AnthropicToolSearch = 'bm25' | 'regex';

const searchTools = {
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
} as const;

/**
 * The request's tools with Anthropic's tool search: the loaded tools as usual, the deferred
 * ones with `defer_loading: true`, and the search tool last — never deferred (the API
 * refuses a request whose every tool is deferred), and so the one a prompt-cache breakpoint
 * lands on (the API refuses `cache_control` on a deferred tool).
 */
export function anthropicToolsWithSearch(options: {
  tools: readonly ToolSpec[];
  deferred: readonly ToolSpec[];
  names: ToolNameMapping;
  strict: boolean;
  search: AnthropicToolSearch;
}): Anthropic.Messages.ToolUnion[] {
  const { tools, deferred, names, strict, search } = options;
  return [
    ...toAnthropicTools(tools, names, strict),
    ...toAnthropicTools(deferred, names, false).map((tool) => ({ ...tool, defer_loading: true })),
    { ...searchTools[search] },
  ];
}

/** Checks `createAnthropicProvider({ toolSearch })`. */
export function checkAnthropicToolSearch(value: unknown): AnthropicToolSearch | undefined {
  if (value === undefined || value === 'bm25' || value === 'regex') return value;
  throw new ProviderError({
    code: 'invalid_options',
    provider: 'anthropic',
    message: `toolSearch must be 'bm25' or 'regex', got ${JSON.stringify(value)}.`,
  });
}
