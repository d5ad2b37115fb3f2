import { randomUUID } from 'node:crypto';
import { type AnyTool, defineTool, ToolExecutionError } from '@mtpx/executor';
import { RAGQueryPayloadSchema, type RAGResponsePayload, type TaskPlanPayload } from '@mtpx/mpl';
import type { JsonObject, JsonValue } from '@mtpx/protocol';
import { z } from 'zod';
import { PRICING_CORPUS } from './pricing-corpus';

/** One step of a task plan. */
export type PlanStep = TaskPlanPayload['steps'][number];

/** What a tool's argument builder knows when its step is about to run. */
export interface StepInputs {
  goal: string;
  step: PlanStep;
  /** The outputs of the steps it depends on, in `dependsOn` order. */
  inputs: JsonValue[];
}

/**
 * A tool the executor agent can run for a plan step: the executor tool itself, the SType
 * its arguments conform to (what a plan's `args_stype` should say), and how to build its
 * arguments from the goal and the outputs of the steps it depends on — the tutorial's
 * `build_args(step)`.
 */
export interface PlanTool {
  tool: AnyTool;
  argsStype?: string;
  buildArgs(inputs: StepInputs): JsonObject;
}

/** The SType of `report_generate`'s arguments, shipped in this app's `stypes/` folder. */
export const SUMMARY_STYPE = 'org.report.Summary.v1';

const STOP_WORDS = new Set(
  'a an and are data find for from in information look of on search the to with'.split(' '),
);

function terms(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((term) => term.length > 1 && !STOP_WORDS.has(term)),
  );
}

const DocumentSchema = z.object({
  documentId: z.string(),
  title: z.string(),
  chunk: z.string().min(1),
});

const PriceSchema = z.object({
  vendor: z.string().min(1),
  plan: z.string().min(1),
  monthlyPrice: z.number().min(0),
  sourceId: z.string(),
});
type Price = z.infer<typeof PriceSchema>;

/** The arguments of `report_generate`: the zod twin of `stypes/org/report/Summary/v1`. */
const SummaryArgsSchema = z.object({
  title: z.string().min(1),
  currency: z.enum(['USD', 'EUR']),
  items: z.array(PriceSchema).min(1),
});

const PRICE_PATTERN = /([A-Z][A-Za-z]+)(?: at)? \$(\d+(?:\.\d{1,2})?)\/month/g;

function money(amount: number, currency: string): string {
  return `${currency === 'EUR' ? '€' : '$'}${amount}/month`;
}

/** Fails the first call of `execute` on purpose, as a flaky backend would: retryable. */
function failingOnce<TArgs>(
  name: string,
  execute: (args: TArgs) => unknown,
): (args: TArgs) => unknown {
  let calls = 0;
  return (args) => {
    calls += 1;
    if (calls === 1)
      throw new ToolExecutionError({
        code: 'unavailable',
        retryable: true,
        message: `${name}: the search backend answered 503 Service Unavailable (failing once on purpose).`,
      });
    return execute(args);
  };
}

function webSearch(args: z.infer<typeof RAGQueryPayloadSchema>): RAGResponsePayload {
  const wanted = terms(args.query);
  const minimum = args.context?.minRelevanceScore ?? 0.2;
  const limit = args.context?.maxDocuments ?? 10;
  const sources = PRICING_CORPUS.map((document) => {
    const found = terms(`${document.title} ${document.chunk}`);
    const matched = [...wanted].filter((term) => found.has(term)).length;
    const relevanceScore = wanted.size === 0 ? 0 : Math.round((matched / wanted.size) * 100) / 100;
    return { ...document, relevanceScore };
  })
    .filter((source) => source.relevanceScore >= minimum)
    .sort((left, right) => right.relevanceScore - left.relevanceScore)
    .slice(0, limit);
  return {
    ...(args.queryId ? { queryId: args.queryId } : {}),
    answer: `Found ${sources.length} relevant page${sources.length === 1 ? '' : 's'}: ${sources.map((source) => source.title).join(', ')}.`,
    sources,
    metadata: { documentsRetrieved: sources.length },
  };
}

function extractPrices({ documents }: { documents: z.infer<typeof DocumentSchema>[] }) {
  const prices: Price[] = [];
  for (const document of documents)
    for (const match of document.chunk.matchAll(PRICE_PATTERN))
      prices.push({
        vendor: document.title,
        plan: match[1] ?? '',
        monthlyPrice: Number(match[2]),
        sourceId: document.documentId,
      });
  if (prices.length === 0)
    throw new ToolExecutionError({
      code: 'no_prices',
      message: `data_extract: none of the ${documents.length} documents states a price as "Plan $N/month".`,
    });
  return { prices };
}

function generateReport({ title, currency, items }: z.infer<typeof SummaryArgsSchema>) {
  const sorted = [...items].sort((left, right) => left.monthlyPrice - right.monthlyPrice);
  const lowest = sorted[0] as Price;
  const highest = sorted[sorted.length - 1] as Price;
  const vendors = new Set(items.map((item) => item.vendor));
  const median = sorted[Math.floor((sorted.length - 1) / 2)] as Price;
  return {
    title,
    summary: `${vendors.size} competitors, ${items.length} plans: from ${money(lowest.monthlyPrice, currency)} (${lowest.vendor} ${lowest.plan}) to ${money(highest.monthlyPrice, currency)} (${highest.vendor} ${highest.plan}); median ${money(median.monthlyPrice, currency)}.`,
    lowest,
    highest,
    vendorCount: vendors.size,
    planCount: items.length,
  };
}

function objectsWith(inputs: readonly JsonValue[], key: string): JsonValue[] {
  return inputs.flatMap((input) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
    const value = (input as JsonObject)[key];
    return Array.isArray(value) ? value : [];
  });
}

/**
 * The three tools of the tutorial's plan, offline and deterministic: `web_search` over
 * {@link PRICING_CORPUS} (arguments `eval.rag.RAGQuery.v1`, output shaped as
 * `eval.rag.RAGResponse.v1`), `data_extract` (prices out of the found pages) and
 * `report_generate` (arguments `org.report.Summary.v1`). `failOnce` names a tool whose
 * first call fails with a retryable error.
 */
export function createPlanTools(options: { failOnce?: string | undefined } = {}): PlanTool[] {
  const maybeFlaky = <TArgs>(name: string, execute: (args: TArgs) => unknown) =>
    options.failOnce === name ? failingOnce(name, execute) : execute;
  return [
    {
      tool: defineTool({
        name: 'web_search',
        description: 'Searches the web for pages about a query; returns ranked sources.',
        input_schema: RAGQueryPayloadSchema,
        execute: maybeFlaky('web_search', webSearch),
      }),
      argsStype: 'eval.rag.RAGQuery.v1',
      buildArgs: ({ step, goal }) => ({
        queryId: randomUUID(),
        query: step.action.trim() || goal,
        context: { maxDocuments: 10, minRelevanceScore: 0.4 },
      }),
    },
    {
      tool: defineTool({
        name: 'data_extract',
        description: 'Extracts the plans and monthly prices stated in documents.',
        input_schema: z.object({ documents: z.array(DocumentSchema).min(1) }),
        execute: maybeFlaky('data_extract', extractPrices),
      }),
      buildArgs: ({ inputs }) => ({
        documents: objectsWith(inputs, 'sources').map((source) => {
          const { documentId, title, chunk } = source as JsonObject;
          return { documentId, title, chunk } as JsonObject;
        }),
      }),
    },
    {
      tool: defineTool({
        name: 'report_generate',
        description: 'Writes a pricing comparison from extracted plans and prices.',
        input_schema: SummaryArgsSchema,
        execute: maybeFlaky('report_generate', generateReport),
      }),
      argsStype: SUMMARY_STYPE,
      buildArgs: ({ goal, inputs }) => ({
        title: goal,
        currency: 'USD',
        items: objectsWith(inputs, 'prices'),
      }),
    },
  ];
}
