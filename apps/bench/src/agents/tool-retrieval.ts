import { readFileSync } from 'node:fs';
import { bm25ToolIndex } from '@mtpx/agent';
import { isJsonObject, type JsonObject, safeParseJson, type ToolSpec } from '@mtpx/protocol';
import type { BfclFunction } from './bfcl-tools';
import { largeToolset } from './github-mcp-tools';

/** The BFCL categories whose items are labelled with the functions their answers call. */
export const retrievalCategories = ['multiple', 'parallel_multiple'] as const;

interface LabelledItem {
  id: string;
  question: string;
  /** The item's own functions (the needed ones and BFCL's distractors). */
  functions: BfclFunction[];
  /** The functions the answer calls. */
  needed: string[];
}

function jsonLines(file: string): JsonObject[] {
  const text = readFileSync(new URL(`../../data/bfcl/${file}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const parsed = safeParseJson(line);
      if (!parsed.ok || !isJsonObject(parsed.value)) {
        throw new Error(`data/bfcl/${file}:${index + 1} is not a JSON object`);
      }
      return parsed.value;
    });
}

/** BFCL's labelled items of `category`: question, functions, and the functions the answer calls. */
export function labelledItems(category: (typeof retrievalCategories)[number]): LabelledItem[] {
  const answers = new Map(
    jsonLines(`possible_answer_${category}.jsonl`).map((answer) => [String(answer.id), answer]),
  );
  return jsonLines(`BFCL_v4_${category}.jsonl`).map((item) => {
    const id = String(item.id);
    const turns = Array.isArray(item.question) ? item.question : [];
    const question = turns
      .flat()
      .map((message) => (isJsonObject(message) ? String(message.content ?? '') : ''))
      .join('\n');
    const functions = (Array.isArray(item.function) ? item.function : []).flatMap((fn) =>
      isJsonObject(fn) && typeof fn.name === 'string'
        ? [
            {
              name: fn.name,
              description: String(fn.description ?? ''),
              parameters: (isJsonObject(fn.parameters) ? fn.parameters : {}) as JsonObject,
            },
          ]
        : [],
    );
    const truth = answers.get(id)?.ground_truth;
    const needed = Array.isArray(truth)
      ? [...new Set(truth.flatMap((call) => (isJsonObject(call) ? Object.keys(call) : [])))]
      : [];
    return { id, question, functions, needed };
  });
}

const asSpec = (fn: BfclFunction): ToolSpec => ({
  name: fn.name,
  description: fn.description,
  input_schema: fn.parameters,
  tags: [],
  risk_level: 'read_only',
});

/** Recall@k of the agent's default search on BFCL's labelled items. */
export interface RetrievalQuality {
  /** Needed functions found among the top `k`, over all needed functions. */
  recall: number;
  found: number;
  needed: number;
  items: number;
  /** Items whose every needed function was among the top `k`. */
  itemsAllFound: number;
  /** How many tools each search ran over (row 9's toolset plus the item's own functions). */
  toolsPerSearch: number;
}

/**
 * For each labelled item of BFCL's `multiple` and `parallel_multiple` categories: the
 * agent's default search ({@link bm25ToolIndex}) over row 9's 146 tools plus the item's own
 * functions (the needed ones and BFCL's distractors), queried with the user's question; a
 * needed function counts as found when it is among the top `k`.
 */
export async function toolRetrievalQuality(k = 5): Promise<RetrievalQuality> {
  const base = largeToolset();
  let found = 0;
  let needed = 0;
  let items = 0;
  let itemsAllFound = 0;
  let toolsPerSearch = 0;
  for (const category of retrievalCategories) {
    for (const item of labelledItems(category)) {
      const byName = new Map(base.map((fn) => [fn.name, fn]));
      for (const fn of item.functions) byName.set(fn.name, fn);
      toolsPerSearch = Math.max(toolsPerSearch, byName.size);
      const top = await bm25ToolIndex([...byName.values()].map(asSpec)).search(item.question, k);
      const hits = item.needed.filter((name) => top.includes(name)).length;
      found += hits;
      needed += item.needed.length;
      items++;
      if (hits === item.needed.length) itemsAllFound++;
    }
  }
  return { recall: found / needed, found, needed, items, itemsAllFound, toolsPerSearch };
}
