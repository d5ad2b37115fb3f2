import type { ToolSpec } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import type { ToolSearchIndexFactory } from './tool-search-index';

/** The tag that marks a tool deferred for `toolSearch: { defer: 'tagged' }`. */
export const DEFERRED_TAG = 'deferred';

/** The search tool's name unless `toolSearch.name` says otherwise. */
export const SEARCH_TOOL_NAME = 'search_tools';

/**
 * Which tools stay out of the request until a search finds them: `'all'` (default), those
 * tagged `'deferred'` (`tags: ['deferred']`), every tool once there are more than a count,
 * or those a function picks.
 */
export type DeferOption = 'all' | 'tagged' | number | ((tool: ToolSpec) => boolean);

/**
 * How an agent searches for tools instead of sending every schema (`createAgent({ toolSearch })`).
 *
 * @example
 * ```ts source="./tool-search.examples.ts#toolSearch"
 * const agent = createAgent({ provider, tools, toolSearch: true });
 * const output = await agent.run('Open a pull request that fixes the README typo.');
 * output.toolResults[0]?.tool_name; // "search_tools": the found tools are sent from the next request on
 * ```
 */
export interface ToolSearchOptions {
  /** Which tools are deferred. Default `'all'`. */
  defer?: DeferOption;
  /** The search over the deferred tools. Default {@link bm25ToolIndex} (BM25, MiniSearch). */
  index?: ToolSearchIndexFactory;
  /** Most tools one search answers. Default 5. */
  maxResults?: number;
  /** The search tool's name. Default `search_tools`. */
  name?: string;
  /**
   * Use the API's own tool search when the provider has one (`provider.nativeToolSearch`:
   * Anthropic's tool search tool, the Responses API's `tool_search`): the deferred tools are
   * sent with `defer_loading` and the API finds them. `'auto'` (default) or `false`.
   */
  native?: 'auto' | false;
}

/** The checked options. */
export interface ToolSearchSettings {
  defer: (tool: ToolSpec, count: number) => boolean;
  index: ToolSearchIndexFactory | undefined;
  maxResults: number;
  name: string;
  native: boolean;
}

function invalid(message: string): AgentError {
  return new AgentError({ code: 'invalid_option', message });
}

function deferRule(defer: unknown): ToolSearchSettings['defer'] {
  if (defer === undefined || defer === 'all') return () => true;
  if (defer === 'tagged') return (tool) => tool.tags?.includes(DEFERRED_TAG) === true;
  if (typeof defer === 'number' && Number.isInteger(defer) && defer >= 0) {
    return (_tool, count) => count > defer;
  }
  if (typeof defer === 'function') {
    const pick = defer as (tool: ToolSpec) => boolean;
    return (tool) => pick(tool) === true;
  }
  throw invalid(
    `toolSearch.defer must be 'all', 'tagged', a whole number or a function, got ${JSON.stringify(defer)}.`,
  );
}

/** Checks `createAgent({ toolSearch })`; `undefined` when tool search is off. */
export function toolSearchSettingsOf(
  option: boolean | ToolSearchOptions | undefined,
): ToolSearchSettings | undefined {
  if (option === undefined || option === false) return undefined;
  const options: ToolSearchOptions = option === true ? {} : option;
  if (typeof options !== 'object' || options === null) {
    throw invalid(`toolSearch must be true, false or an options object, got ${String(option)}.`);
  }
  const maxResults = options.maxResults ?? 5;
  if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > 50) {
    throw invalid(`toolSearch.maxResults must be a whole number from 1 to 50, got ${maxResults}.`);
  }
  const name = options.name ?? SEARCH_TOOL_NAME;
  if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
    throw invalid(
      `toolSearch.name must be 1–64 letters, digits, _ or -, got ${JSON.stringify(name)}.`,
    );
  }
  if (options.index !== undefined && typeof options.index !== 'function') {
    throw invalid('toolSearch.index must be a function that builds a ToolSearchIndex.');
  }
  if (options.native !== undefined && options.native !== 'auto' && options.native !== false) {
    throw invalid(`toolSearch.native must be 'auto' or false, got ${String(options.native)}.`);
  }
  return {
    defer: deferRule(options.defer),
    index: options.index,
    maxResults,
    name,
    native: options.native !== false,
  };
}
