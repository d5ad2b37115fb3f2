import type { AssistantToolCall, ToolResult, ToolSpec } from '@mtpx/protocol';
import type { ToolSearch } from './tool-search';

/** What the run loop needs from tool search for one round. */
export interface OfferedTools {
  tools: readonly ToolSpec[];
  /** `{ deferredTools }` for the request, or nothing. */
  deferred: { deferredTools?: readonly ToolSpec[] };
  refuse: ((call: AssistantToolCall) => ToolResult | undefined) | undefined;
}

/** One round's tools: all of them without tool search; else the loaded, the found and the search. */
export function roundToolsOf(
  toolSearch: ToolSearch | undefined,
  tools: readonly ToolSpec[],
  history: ReadonlyMap<string, ToolResult>,
): OfferedTools {
  if (toolSearch === undefined) return { tools, deferred: {}, refuse: undefined };
  const round = toolSearch.roundTools(tools, history);
  return {
    tools: round.tools,
    deferred: round.deferredTools === undefined ? {} : { deferredTools: round.deferredTools },
    refuse: round.refuse,
  };
}
