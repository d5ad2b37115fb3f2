import { defineTool, type Executor, type Tool } from '@mtpx/executor';
import type { AssistantToolCall, Provider, ToolResult, ToolSpec } from '@mtpx/protocol';
import { bm25ToolIndex, type FoundTool, oneLine, type ToolSearchIndex } from './tool-search-index';
import type { ToolSearchSettings } from './tool-search-options';

/**
 * The search tool's description: all the model is told about tool search, so it is kept
 * short (it rides on every request; the bench's token row counts it).
 */
export const SEARCH_TOOL_DESCRIPTION =
  'Find more tools by what they do. Found tools can be called from your next response.';

/** What one round offers the model. */
export interface RoundTools {
  /** The tools whose schemas are sent (the search tool among them, when it is ours). */
  tools: ToolSpec[];
  /** Deferred tools for a provider's own tool search (sent with `defer_loading`). */
  deferredTools?: ToolSpec[];
  /** Deferred tools not found yet: a call to one is answered "search first", never run. */
  hidden: ReadonlySet<string>;
  /** The answer to a call of a hidden tool (nothing runs); `undefined` for any other call. */
  refuse?: (call: AssistantToolCall) => ToolResult | undefined;
}

/** The search tool's answer. */
export interface ToolSearchOutput {
  tools: FoundTool[];
}

/**
 * An agent's tool search: which tools are deferred, the search tool, what each round
 * offers. What a run has found is read from its results (the search tool's outputs), so
 * sessions, journals and `resume` keep it with no state of their own.
 */
export class ToolSearch {
  readonly settings: ToolSearchSettings;
  /** True when the provider's own search is used (nothing of ours is offered). */
  readonly native: boolean;
  readonly #executor: Executor;
  #index: { key: string; index: Promise<ToolSearchIndex> } | undefined;

  constructor(settings: ToolSearchSettings, executor: Executor, provider: Provider) {
    this.settings = settings;
    this.#executor = executor;
    this.native = settings.native && provider.nativeToolSearch === true;
  }

  /** The search tool, for the executor to run (registered unless the search is native). */
  searchTool(): Tool<{ query: string }> {
    return defineTool({
      name: this.settings.name,
      description: SEARCH_TOOL_DESCRIPTION,
      input_schema: {
        type: 'object',
        properties: { query: { type: 'string' } },
        required: ['query'],
      },
      execute: async ({ query }: { query: string }): Promise<ToolSearchOutput> => ({
        tools: await this.search(String(query)),
      }),
    });
  }

  /** The deferred tools best matching `query`, best first, at most `maxResults`. */
  async search(query: string): Promise<FoundTool[]> {
    await this.#executor.registry.load();
    const deferred = this.#split(this.#executor.registry.list()).deferred;
    const byName = new Map(deferred.map((tool) => [tool.name, tool]));
    const index = await this.#indexOf(deferred);
    const names = await index.search(query, this.settings.maxResults);
    const found: FoundTool[] = [];
    for (const name of names) {
      const tool = byName.get(name);
      if (tool === undefined || found.some((other) => other.name === name)) continue;
      found.push({ name, description: oneLine(tool.description) });
      if (found.length >= this.settings.maxResults) break;
    }
    return found;
  }

  /** What a round offers: the loaded tools, those found so far, and the search. */
  roundTools(specs: readonly ToolSpec[], history: ReadonlyMap<string, ToolResult>): RoundTools {
    const { loaded, deferred } = this.#split(specs);
    const search = specs.find((spec) => spec.name === this.settings.name);
    if (this.native) {
      return deferred.length === 0
        ? { tools: loaded, hidden: new Set() }
        : { tools: loaded, deferredTools: deferred, hidden: new Set() };
    }
    if (deferred.length === 0) return { tools: loaded, hidden: new Set() };
    const found = foundToolNames(history, this.settings.name);
    const tools = [...loaded];
    if (search !== undefined) tools.push(search);
    const hidden = new Set<string>();
    for (const tool of deferred) {
      if (found.has(tool.name)) tools.push(tool);
      else hidden.add(tool.name);
    }
    const name = this.settings.name;
    const refuse = (call: AssistantToolCall) =>
      hidden.has(call.name) ? notFoundYetResult(call, name) : undefined;
    return { tools, hidden, refuse };
  }

  #split(specs: readonly ToolSpec[]): { loaded: ToolSpec[]; deferred: ToolSpec[] } {
    const loaded: ToolSpec[] = [];
    const deferred: ToolSpec[] = [];
    const candidates = specs.filter((spec) => spec.name !== this.settings.name);
    for (const spec of candidates) {
      if (this.settings.defer(spec, candidates.length)) deferred.push(spec);
      else loaded.push(spec);
    }
    return { loaded, deferred };
  }

  #indexOf(tools: readonly ToolSpec[]): Promise<ToolSearchIndex> {
    const key = tools.map((tool) => tool.name).join('\n');
    if (this.#index?.key !== key) {
      const factory = this.settings.index ?? bm25ToolIndex;
      const index = Promise.resolve().then(() => factory(tools));
      // A failed build is tried again on the next search.
      index.catch(() => {
        if (this.#index?.index === index) this.#index = undefined;
      });
      this.#index = { key, index };
    }
    return this.#index.index;
  }
}

/** The tools the run's searches have answered so far (their names), from the results. */
export function foundToolNames(
  history: ReadonlyMap<string, ToolResult>,
  searchToolName: string,
): Set<string> {
  const found = new Set<string>();
  for (const result of history.values()) {
    if (result.tool_name !== searchToolName || !result.success) continue;
    const tools = (result.output as { tools?: unknown } | null)?.tools;
    if (!Array.isArray(tools)) continue;
    for (const tool of tools) {
      const name = (tool as { name?: unknown } | null)?.name;
      if (typeof name === 'string') found.add(name);
    }
  }
  return found;
}

/** The answer to a call of a deferred tool the model has not found yet: nothing runs. */
export function notFoundYetResult(call: AssistantToolCall, searchToolName: string): ToolResult {
  return {
    call_id: call.id,
    tool_name: call.name,
    output: null,
    success: false,
    error: `Not run: the tool "${call.name}" is not loaded yet. Call ${searchToolName} to find it; it can be called from your next response.`,
    error_code: 'unknown_tool',
    cached: false,
    skipped: true,
    created_at: new Date().toISOString(),
  };
}
