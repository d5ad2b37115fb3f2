import { isJsonObject } from '@mtpx/protocol';
import { countTokens } from 'gpt-tokenizer';

/** A request a scripted model server received (the shape both servers record). */
export interface RecordedBody {
  body: unknown;
}

/**
 * The tokens a run sent to the model: for each request, the o200k_base tokens (GPT-4o's
 * tokenizer) of the JSON text of its `messages` and `tools`, added up. An approximation of
 * billed prompt tokens — a provider also counts a few tokens of framing per message — but
 * the same rule for every variant, so the ratios hold.
 */
export function tokensSent(requests: readonly RecordedBody[]): number {
  let total = 0;
  for (const { body } of requests) {
    if (!isJsonObject(body)) continue;
    total += countTokens(JSON.stringify({ messages: body.messages, tools: body.tools ?? [] }));
  }
  return total;
}
