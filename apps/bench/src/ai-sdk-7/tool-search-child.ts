// Row 9's AI SDK 7 line, run in a Node 22 child process (AI SDK 7 needs Node ≥ 22; the
// bench runs on Node 20): `node22 --import tsx tool-search-child.ts <repetitions>`, with the
// AI SDK 7 loaded from `.tools/bench-ai-sdk-7` (see `ai-sdk-7-modules.ts`). For
// each task, the AI SDK 7 `generateText` with `toolSearch()` and the 146 tools registered
// with `deferLoading: true` runs against a scripted server that plays the task with the
// same search queries as our agent's line, then level by level (no references); each run
// is checked as in the parent. Prints one JSON line per task.
import type { JsonObject, JsonSchemaObject } from '@mtpx/protocol';
import { type ScriptedTurn, startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { repeated } from '../agents/agent-variant';
import { largeToolset } from '../agents/github-mcp-tools';
import { LargeToolsetLog } from '../agents/large-toolset-log';
import { type LargeToolsetTask, largeToolsetTasks } from '../agents/large-toolset-scenario';
import { anthropicTokensSent, tokensSent } from '../agents/tokens-sent';
import { importInstalled } from './ai-sdk-7-modules';

// The few AI SDK 7 functions used, typed here (its types are not installed in the workspace).
type Fn = (...args: never[]) => unknown;
const ai = (await importInstalled('ai')) as Record<
  'generateText' | 'isStepCount' | 'jsonSchema' | 'tool' | 'toolSearch',
  Fn
>;
const compatible = (await importInstalled('@ai-sdk/openai-compatible')) as {
  createOpenAICompatible: (options: Record<string, unknown>) => {
    chatModel: (id: string) => unknown;
  };
};
const call = <T>(fn: Fn, ...args: unknown[]): T => (fn as (...rest: unknown[]) => T)(...args);

/** What the child prints for one task. */
export interface AiSdk7TaskResult {
  task: string;
  samples: Array<{ modelCalls: number; tokensSent: number; anthropicTokensSent: number }>;
  /** Why a run failed its check (a needed tool the search did not find, …), when one did. */
  problem?: string;
}

/** The task as AI SDK 7 plays it with tool search: the searches, then level by level, then the answer. */
function script(task: LargeToolsetTask): ScriptedTurn[] {
  return [
    {
      toolCalls: task.searches.map((query, index) => ({
        id: `search_${index + 1}`,
        name: 'search_tools',
        arguments: { query },
      })),
    },
    ...task.levels.map((calls) => ({ toolCalls: calls })),
    { text: task.answer },
  ];
}

async function measure(task: LargeToolsetTask, runs: number): Promise<AiSdk7TaskResult> {
  const turns = script(task);
  const server = await startScriptedOpenAIServer(repeated(turns, runs));
  const log = { current: new LargeToolsetLog() };
  const tools: Record<string, unknown> = { search_tools: call(ai.toolSearch) };
  for (const fn of largeToolset()) {
    tools[fn.name] = call(ai.tool, {
      description: fn.description,
      inputSchema: call(ai.jsonSchema, fn.parameters as JsonSchemaObject),
      deferLoading: true,
      execute: async (args: JsonObject) => log.current.call(fn.name, args),
    });
  }
  const model = compatible
    .createOpenAICompatible({
      name: 'scripted',
      baseURL: `${server.url}/v1`,
      apiKey: 'test',
      includeUsage: true,
    })
    .chatModel('scripted-model');
  const result: AiSdk7TaskResult = { task: task.name, samples: [] };
  try {
    for (let run = 0; run < runs; run++) {
      log.current = new LargeToolsetLog();
      const first = server.requests.length;
      await call<Promise<unknown>>(ai.generateText, {
        model,
        prompt: task.task,
        tools,
        stopWhen: call(ai.isStepCount, 10),
        maxRetries: 0,
      });
      const requests = server.requests.slice(first);
      const problem =
        requests.length === turns.length
          ? task.check(log.current)
          : `${requests.length} model calls, expected ${turns.length}`;
      if (problem !== undefined) {
        result.problem = problem;
        break;
      }
      // The first run is untimed in the parent's rows too: it warms up, and is left out.
      if (run === 0) continue;
      result.samples.push({
        modelCalls: requests.length,
        tokensSent: tokensSent(requests),
        anthropicTokensSent: anthropicTokensSent(requests),
      });
    }
  } finally {
    await server.close();
  }
  return result;
}

const repetitions = Number(process.argv[2] ?? 3);
for (const task of largeToolsetTasks) {
  console.log(JSON.stringify(await measure(task, repetitions + 1)));
}
