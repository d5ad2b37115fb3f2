import { createAgent } from '@mtpx/agent';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import type { CurrentLog } from './agent-variant';
import { largeToolset } from './github-mcp-tools';
import type { LargeToolsetLog } from './large-toolset-log';
import { functionTools, vercelFunctionsRunner } from './toolset-runs';

/**
 * Our agent with row 9's 146 tools (each writing to `log`) on the OpenAI adapter pointed
 * at a scripted server, made once; `toolSearch` defers every tool behind the search tool.
 */
export function mtpxLargeToolsetRunner(
  serverUrl: string,
  task: string,
  log: CurrentLog<LargeToolsetLog>,
  options: { toolSearch: boolean },
): () => Promise<string> {
  const tools = functionTools(largeToolset(), log);
  const agent = createAgent({
    provider: createOpenAIProvider({
      model: 'scripted-model',
      apiKey: 'test',
      baseURL: `${serverUrl}/v1`,
      maxRetries: 0,
    }),
    tools,
    toolSearch: options.toolSearch,
  });
  return async () => (await agent.run(task)).finalText;
}

/** The Vercel AI SDK (`ai` 6) with the same 146 tools, every schema on every request. */
export function vercelLargeToolsetRunner(
  serverUrl: string,
  task: string,
  log: CurrentLog<LargeToolsetLog>,
): () => Promise<string> {
  return vercelFunctionsRunner(serverUrl, task, largeToolset(), log);
}
