import type { ToolSpec } from '@mtpx/protocol';
import type { ToolNameMapping } from '../tool-names';
import { toResponsesTools } from './responses-request';

/**
 * The request's tools with the Responses API's tool search: the loaded functions as usual,
 * the deferred ones with `defer_loading: true`, and `{ "type": "tool_search" }` (the API
 * refuses deferred functions without it: "Deferred tools require tools.tool_search").
 */
export function responsesToolsWithSearch(options: {
  tools: readonly ToolSpec[];
  deferred: readonly ToolSpec[];
  names: ToolNameMapping;
  strict: boolean;
}): Record<string, unknown>[] {
  const { tools, deferred, names, strict } = options;
  return [
    ...toResponsesTools(tools, names, strict),
    ...toResponsesTools(deferred, names, strict).map((tool) => ({ ...tool, defer_loading: true })),
    { type: 'tool_search' },
  ];
}
