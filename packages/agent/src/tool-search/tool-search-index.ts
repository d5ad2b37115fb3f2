import type { ToolSpec } from '@mtpx/protocol';
import MiniSearch from 'minisearch';

/** One tool a search found: its name and a one-line description. */
export interface FoundTool {
  name: string;
  description: string;
}

/**
 * A search over the deferred tools. `search` answers the names of the best matching tools,
 * best first, at most `limit`; names it does not know are ignored.
 */
export interface ToolSearchIndex {
  /** The names of the tools that best match `query`, best first, at most `limit`. */
  search(query: string, limit: number): readonly string[] | Promise<readonly string[]>;
}

/**
 * Builds the search over a set of tools, once per set (again only when the set changes).
 * Plug in your own (embeddings, a vector store) with `toolSearch: { index }`.
 *
 * @example
 * ```ts source="./tool-search.examples.ts#ownIndex"
 * const cosine = (a: number[], b: number[]) =>
 *   a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
 * const byEmbeddings: ToolSearchIndexFactory = async (deferred) => {
 *   const vectors = await Promise.all(
 *     deferred.map(async (tool) => ({ name: tool.name, vector: await embed(tool.description) })),
 *   );
 *   return {
 *     search: async (query, limit) => {
 *       const target = await embed(query);
 *       return vectors
 *         .map(({ name, vector }) => ({ name, score: cosine(vector, target) }))
 *         .sort((a, b) => b.score - a.score)
 *         .slice(0, limit)
 *         .map(({ name }) => name);
 *     },
 *   };
 * };
 * const agent = createAgent({ provider, tools, toolSearch: { index: byEmbeddings } });
 * ```
 */
export type ToolSearchIndexFactory = (
  tools: readonly ToolSpec[],
) => ToolSearchIndex | Promise<ToolSearchIndex>;

interface IndexedTool {
  id: string;
  name: string;
  description: string;
  parameters: string;
}

/** Splits `get_stock_info`, `issueRead`, `github.list-issues` into words. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/**
 * Words that say nothing about which tool to use (English function words and the phrases
 * of a request: "can you help me…"); they are left out of the index and of queries.
 */
const stopWords = new Set(
  (
    'a an and are as at be been but by can could do does for from had has have he her his how i ' +
    'if in into is it its me my of on or our please she so some than that the their them then ' +
    'there these they this to too us was we were what when where which who whom why will with ' +
    'would you your also just want need like help tell give let know first second next after ' +
    'before about could should any each other such only own same very'
  ).split(' '),
);

/** Lower case and a plural `s` off, so "issues" finds `list_issue` and "stocks" `get_stock`. */
function term(word: string): string | null {
  const lower = word.toLowerCase();
  if (stopWords.has(lower)) return null;
  if (lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss')) return lower.slice(0, -1);
  return lower;
}

/** The names of an object schema's properties, nested ones included (a bounded walk). */
export function parameterNames(schema: unknown, budget = { left: 200 }): string[] {
  const names: string[] = [];
  const stack: unknown[] = [schema];
  while (stack.length > 0 && budget.left > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null) continue;
    budget.left--;
    const properties = (node as { properties?: unknown }).properties;
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
      for (const [name, child] of Object.entries(properties)) {
        names.push(name);
        stack.push(child);
      }
    }
    const items = (node as { items?: unknown }).items;
    if (items !== undefined) stack.push(items);
  }
  return names;
}

/**
 * The default search: BM25 (MiniSearch) over each tool's name, description and parameter
 * names, the name weighted most. Words are split at `_`, `.`, `-` and camelCase humps, lower
 * cased, plural `s` dropped, English stop words left out; a query word of four letters or
 * more also matches as a prefix.
 *
 * @example
 * ```ts source="./tool-search.examples.ts#bm25ToolIndex"
 * const index = bm25ToolIndex(tools);
 * const names = await index.search('create a pull request', 5); // ["create_pull_request", …]
 * ```
 */
export function bm25ToolIndex(tools: readonly ToolSpec[]): ToolSearchIndex {
  const index = new MiniSearch<IndexedTool>({
    fields: ['name', 'description', 'parameters'],
    storeFields: [],
    tokenize: words,
    processTerm: term,
    searchOptions: {
      boost: { name: 3, description: 1, parameters: 1.5 },
      prefix: (word) => word.length > 3,
      combineWith: 'OR',
    },
  });
  const seen = new Set<string>();
  const documents: IndexedTool[] = [];
  for (const tool of tools) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    documents.push({
      id: tool.name,
      name: tool.name,
      description: tool.description,
      parameters: parameterNames(tool.input_schema).join(' '),
    });
  }
  index.addAll(documents);
  return {
    search: (query, limit) =>
      index
        .search(query)
        .slice(0, limit)
        .map((result) => String(result.id)),
  };
}

/** A description cut to its first line and sentence, at most `max` characters. */
export function oneLine(description: string, max = 120): string {
  const line = description.trim().split('\n')[0] ?? '';
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length > max ? `${sentence.slice(0, max - 1)}…` : sentence;
}
