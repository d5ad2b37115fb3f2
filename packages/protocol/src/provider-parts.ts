import { z } from 'zod';
import type { JsonValue } from './json';

const JsonValueSchema: z.ZodType<JsonValue> = z.json();

/**
 * A piece of an assistant turn that belongs to the provider that made it: an Anthropic
 * `thinking` block with its `signature`, a `redacted_thinking` block, a server-side tool
 * block (`server_tool_use`, `web_search_tool_result`, `mcp_tool_use`, …), DeepSeek's
 * `reasoning_content`, OpenRouter's `reasoning_details`, the `reasoning` field of Groq,
 * Ollama and vLLM, or a Gemini tool call's `extra_content`.
 *
 * The message model keeps it opaque: `data` is the API's own value, unchanged, so the
 * next request can send it back exactly. Only the provider named by `provider` reads
 * it; every other provider leaves it out of its requests.
 */
export const ProviderPartSchema = z.object({
  /** The adapter that made it and alone replays it (`anthropic`, `openai`). */
  provider: z.string().min(1),
  /**
   * For OpenAI-compatible parts: the service it came from (the preset name, `deepseek`,
   * `groq`, …). A part is replayed only to the same service.
   */
  service: z.string().optional(),
  /** The API's name for it: a block type (`thinking`) or a field name (`reasoning_content`). */
  type: z.string().min(1),
  /** The API's value, unchanged (a whole block, a string, an array of details). */
  data: JsonValueSchema,
  /** Its position among the turn's content blocks, where the API orders blocks (Anthropic). */
  index: z.number().int().nonnegative().optional(),
  /** The tool call it belongs to, when it rides on one (Gemini's `extra_content`). */
  call_id: z.string().optional(),
  /**
   * Readable reasoning text, for display. Absent for redacted or encrypted reasoning,
   * which is kept and replayed but never shown.
   */
  text: z.string().optional(),
  /** Set on a server-side tool block: the API ran it; it is never a local tool call. */
  server_tool: z.object({ id: z.string().optional(), name: z.string().optional() }).optional(),
});

/** A provider-owned piece of an assistant turn (see {@link ProviderPartSchema}). */
export type ProviderPart = z.infer<typeof ProviderPartSchema>;

/**
 * The readable reasoning of a message's provider parts, joined by blank lines; `undefined`
 * when there is none (redacted and encrypted parts carry no text).
 *
 * @example
 * ```ts source="./protocol.examples.ts#reasoningText"
 * reasoningText(turn.message.provider_parts); // "The user wants 2 + 3 …"
 * ```
 * @internal
 */
export function reasoningText(parts: readonly ProviderPart[] | undefined): string | undefined {
  const texts = (parts ?? []).flatMap((part) =>
    part.text !== undefined && part.text !== '' ? [part.text] : [],
  );
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

/** The server-side tool blocks among a message's provider parts, in order. @internal */
export function serverToolParts(parts: readonly ProviderPart[] | undefined): ProviderPart[] {
  return (parts ?? []).filter((part) => part.server_tool !== undefined);
}
