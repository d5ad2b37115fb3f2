// Type-checked examples shown in the TSDoc of the tool search files (scripts/docs/examples.mjs).
import type { Tool } from '@mtpx/executor';
import type { Provider, ToolSpec } from '@mtpx/protocol';
import { createAgent } from '../run/agent';
import { bm25ToolIndex, type ToolSearchIndexFactory } from './tool-search-index';

export async function toolSearchExample(provider: Provider, tools: Tool[]) {
  //#region toolSearch
  const agent = createAgent({ provider, tools, toolSearch: true });
  const output = await agent.run('Open a pull request that fixes the README typo.');
  output.toolResults[0]?.tool_name; // "search_tools": the found tools are sent from the next request on
  //#endregion toolSearch
  return output;
}

export async function bm25ToolIndexExample(tools: ToolSpec[]) {
  //#region bm25ToolIndex
  const index = bm25ToolIndex(tools);
  const names = await index.search('create a pull request', 5); // ["create_pull_request", …]
  //#endregion bm25ToolIndex
  return names;
}

export function ownIndexExample(
  provider: Provider,
  tools: Tool[],
  embed: (text: string) => Promise<number[]>,
) {
  //#region ownIndex
  const cosine = (a: number[], b: number[]) =>
    a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
  const byEmbeddings: ToolSearchIndexFactory = async (deferred) => {
    const vectors = await Promise.all(
      deferred.map(async (tool) => ({ name: tool.name, vector: await embed(tool.description) })),
    );
    return {
      search: async (query, limit) => {
        const target = await embed(query);
        return vectors
          .map(({ name, vector }) => ({ name, score: cosine(vector, target) }))
          .sort((a, b) => b.score - a.score)
          .slice(0, limit)
          .map(({ name }) => name);
      },
    };
  };
  const agent = createAgent({ provider, tools, toolSearch: { index: byEmbeddings } });
  //#endregion ownIndex
  return agent;
}
