import type { FinishReason, JsonObject, ProviderPart, Usage } from '@mtpx/protocol';

/** One tool call a scripted model makes. */
export interface ScriptedToolCall {
  /** The call id; `call_<turn>_<n>` when left out. */
  id?: string;
  /** The tool's MTP name (`calculator.add`). */
  name: string;
  /**
   * The arguments: an object, or the exact JSON text the model sends (which may be
   * malformed on purpose, to test error paths). `{}` when left out.
   */
  arguments?: JsonObject | string;
}

/** One answer of a scripted model: text, tool calls, or both. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** `tool_calls` when there are calls, `stop` otherwise, unless given. */
  finishReason?: FinishReason;
  usage?: Usage;
  /** Readable reasoning, streamed as `reasoning-delta` before the text. */
  reasoning?: string;
  /** A refusal's text (give `finishReason: "refusal"` too). */
  refusal?: string;
  /** Provider parts the turn carries (server tool blocks are reported as `server-tool-used`). */
  providerParts?: ProviderPart[];
}

/** The id a scripted call gets when the script leaves it out. */
export function scriptedCallId(
  turnIndex: number,
  callIndex: number,
  call: ScriptedToolCall,
): string {
  return call.id ?? `call_${turnIndex + 1}_${callIndex + 1}`;
}

/** The JSON text of a scripted call's arguments. */
export function scriptedArgumentsText(call: ScriptedToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
}

/** Splits text into pieces of at most `size` characters (at least one piece). */
export function splitIntoChunks(text: string, size: number): string[] {
  if (text === '' || size <= 0 || text.length <= size) return [text];
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}
