import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import type { AgentSample } from '../agents/agent-sample';
import { type AgentVariant, measureVariants, repeated, setUpWith } from '../agents/agent-variant';
import { LargeToolsetLog } from '../agents/large-toolset-log';
import { mtpxLargeToolsetRunner, vercelLargeToolsetRunner } from '../agents/large-toolset-runs';
import {
  type LargeToolsetTask,
  largeToolsetTasks,
  levelByLevel,
  withEverySchema,
  withToolSearch,
} from '../agents/large-toolset-scenario';
import { toolRetrievalQuality } from '../agents/tool-retrieval';
import { aiSdk7ToolSearch } from '../ai-sdk-7/run-child';
import type { BenchConfig } from '../config';
import { formatNumber } from '../support/format';
import type { ResultLine, RowResult } from '../support/results';
import { pairedRatios, summarize } from '../support/stats';

type Variant = 'search' | 'every' | 'vercel';
const order: Variant[] = ['search', 'every', 'vercel'];
const labels: Record<Variant | 'ai7', string> = {
  search: 'MTPX agent, `toolSearch: true` (BM25 search tool)',
  every: 'MTPX agent, every schema on every request',
  vercel: 'Vercel AI SDK `generateText` (ai 6), every schema, level by level',
  ai7: 'Vercel AI SDK 7 `generateText` + `toolSearch()` (Node 22), level by level',
};
type TokenSample = Pick<AgentSample, 'modelCalls' | 'tokensSent' | 'anthropicTokensSent'>;

/** One task's three variants against scripted OpenAI-compatible servers. */
async function measureTask(task: LargeToolsetTask, repetitions: number) {
  const server = (turns: ReturnType<typeof withToolSearch>) => (runs: number) =>
    startScriptedOpenAIServer(repeated(turns, runs));
  const variants: Record<Variant, AgentVariant<LargeToolsetLog>> = {
    search: {
      label: labels.search,
      setUp: setUpWith(server(withToolSearch(task)), (url, log) =>
        mtpxLargeToolsetRunner(url, task.task, log, { toolSearch: true }),
      ),
      modelCalls: 3,
      lowerBoundMs: 0,
    },
    every: {
      label: labels.every,
      setUp: setUpWith(server(withEverySchema(task)), (url, log) =>
        mtpxLargeToolsetRunner(url, task.task, log, { toolSearch: false }),
      ),
      modelCalls: 2,
      lowerBoundMs: 0,
    },
    vercel: {
      label: labels.vercel,
      setUp: setUpWith(server(levelByLevel(task)), (url, log) =>
        vercelLargeToolsetRunner(url, task.task, log),
      ),
      modelCalls: task.levels.length + 1,
      lowerBoundMs: 0,
    },
  };
  return measureVariants({
    variants,
    order,
    repetitions,
    newLog: () => new LargeToolsetLog(),
    check: (log) => task.check(log),
  });
}

type LineVariant = Variant | 'ai7';
type TaskSamples = Partial<Record<LineVariant, TokenSample[]>> & Record<Variant, TokenSample[]>;

function taskLine(benchmark: string, variant: LineVariant, samples: TaskSamples): ResultLine {
  const own = samples[variant] as TokenSample[];
  const tokens = (list: TokenSample[]) => list.map((sample) => sample.tokensSent);
  const value = summarize(tokens(own));
  const modelCalls = summarize(own.map((sample) => sample.modelCalls)).median;
  const details: Record<string, number> = {
    modelCalls,
    tokensSent: value.median,
    anthropicTokensSent: summarize(own.map((sample) => sample.anthropicTokensSent)).median,
  };
  const notes = [`${modelCalls} model calls`];
  const line: ResultLine = {
    benchmark,
    variant: labels[variant],
    value,
    unit: 'tokens/task',
    details,
  };
  if (variant !== 'every') {
    line.ratio = {
      to: 'MTPX, every schema',
      value: pairedRatios(tokens(own), tokens(samples.every)),
    };
  }
  if (variant === 'search' || variant === 'every') {
    details.tokensRatioToVercel = pairedRatios(tokens(own), tokens(samples.vercel)).median;
    notes.push(`tokens ${formatNumber(details.tokensRatioToVercel)}× Vercel`);
  }
  if (variant === 'search' && samples.ai7 !== undefined) {
    details.tokensRatioToAiSdk7ToolSearch = pairedRatios(tokens(own), tokens(samples.ai7)).median;
    notes.push(`${formatNumber(details.tokensRatioToAiSdk7ToolSearch)}× AI SDK 7 toolSearch`);
  }
  notes.push(`Anthropic rules ${formatNumber(details.anthropicTokensSent as number)} tokens`);
  line.note = notes.join(' · ');
  return line;
}

/**
 * Row 9: a large real toolset — the GitHub MCP server's 117 published tools and row 8's 29
 * BFCL functions — on four tasks that need 2 to 5 of them: tokens sent per task and model
 * calls, with tool search (our agent's BM25 search tool), with every schema on every
 * request, the Vercel AI SDK 6 sending every schema, and the AI SDK 7 with its
 * `toolSearch()` (on Node 22, installed into `.tools/` on first use); then the search's recall@5 on BFCL's labelled
 * `multiple` and `parallel_multiple` items.
 */
export async function toolSearchRow(config: BenchConfig): Promise<RowResult> {
  const { repetitions } = config.agents;
  const lines: ResultLine[] = [];
  const ai7 = await aiSdk7ToolSearch(repetitions);
  const variants: LineVariant[] = [...order, 'ai7'];
  // Per repetition, the tokens of the four tasks added up (repetition k of each task).
  const totals = Object.fromEntries(
    variants.map((variant) => [variant, Array(repetitions).fill(0) as number[]]),
  ) as Record<LineVariant, number[]>;
  for (const task of largeToolsetTasks) {
    const samples: TaskSamples = await measureTask(task, repetitions);
    const fromChild = ai7.get(task.name)?.samples;
    if (fromChild?.length !== repetitions) {
      throw new Error(`AI SDK 7 toolSearch, ${task.name}: ${fromChild?.length ?? 0} runs`);
    }
    samples.ai7 = fromChild;
    for (const variant of variants) {
      lines.push(taskLine(task.name, variant, samples));
      (samples[variant] as TokenSample[]).forEach((sample, k) => {
        totals[variant][k] = (totals[variant][k] as number) + sample.tokensSent;
      });
    }
  }
  const allTasks = (variant: LineVariant): ResultLine => {
    const line: ResultLine = {
      benchmark: 'all four tasks',
      variant: labels[variant],
      value: summarize(totals[variant]),
      unit: 'tokens',
    };
    if (variant !== 'every') {
      line.ratio = { to: 'MTPX, every schema', value: pairedRatios(totals[variant], totals.every) };
    }
    return line;
  };
  lines.push(...variants.map(allTasks));
  // Deterministic, but measured like every line: once per repetition.
  const recalls: number[] = [];
  let quality = await toolRetrievalQuality(5);
  recalls.push(quality.recall);
  while (recalls.length < repetitions) {
    quality = await toolRetrievalQuality(5);
    recalls.push(quality.recall);
  }
  lines.push({
    benchmark: `BFCL multiple + parallel_multiple (${quality.items} items)`,
    variant: 'default search, recall@5 (the needed function among the top 5)',
    value: summarize(recalls),
    unit: 'recall',
    details: { ...quality },
    note: `${quality.found} of ${quality.needed} needed functions · every needed function found for ${quality.itemsAllFound} of ${quality.items} items · ${quality.toolsPerSearch} tools per search at most (the 146 and the item's own), the question as the query`,
  });
  return {
    row: 9,
    title: 'Tool search',
    measures: `Four tasks over 146 real tools (GitHub MCP server's 117, BFCL's 29), against a scripted OpenAI-compatible model: tokens sent per task and model calls with tool search, with every schema, the Vercel AI SDK 6 with every schema, and the AI SDK 7 with toolSearch() (on Node 22); the search's recall@5 on BFCL's labelled items.`,
    repetitions,
    lines,
  };
}
