import {
  type AssistantToolCall,
  isJsonObject,
  safeParseJson,
  type ToolArguments,
} from '@mtpx/protocol';
import { describeValue } from '@mtpx/protocol/internal';

/**
 * A call's arguments text, parsed: the object, or the text kept with what is wrong with it.
 *
 * @internal
 */
export type ParsedToolArguments =
  | { ok: true; arguments: ToolArguments }
  | { ok: false; arguments: ToolArguments; rawArguments: string; error: string };

/**
 * Parses the JSON text of a call's arguments without throwing. Empty text means "no
 * arguments" (`{}`), as some APIs send for tools without parameters. Text that is not
 * JSON, or JSON that is not an object, is kept with an error message written for the
 * model, so the call can be answered with an error instead of executed.
 *
 * @example
 * ```ts source="./tool-arguments.examples.ts#parseToolArguments"
 * parseToolArguments('{"a":15,"b":27}'); // { ok: true, arguments: { a: 15, b: 27 } }
 * parseToolArguments('{"a":15,'); // { ok: false, arguments: {}, rawArguments: '{"a":15,', error: '…' }
 * ```
 *
 * @internal
 */
export function parseToolArguments(text: string): ParsedToolArguments {
  if (text.trim() === '') return { ok: true, arguments: {} };
  const parsed = safeParseJson(text);
  if (!parsed.ok) {
    return {
      ok: false,
      arguments: {},
      rawArguments: text,
      error: `The arguments are not valid JSON (${parsed.error.message}). Send one JSON object.`,
    };
  }
  if (!isJsonObject(parsed.value)) {
    return {
      ok: false,
      arguments: {},
      rawArguments: text,
      error: `The arguments must be a JSON object, not ${describeValue(parsed.value)}.`,
    };
  }
  return { ok: true, arguments: parsed.value };
}

/**
 * An assistant tool call from the parts a provider returned. The name is expected
 * already mapped back to its MTP form; unparsable arguments are kept on the call.
 *
 * @internal
 */
export function assistantToolCall(
  id: string,
  name: string,
  argumentsText: string,
): AssistantToolCall {
  return assistantToolCallFromParsed(id, name, parseToolArguments(argumentsText));
}

/** An assistant tool call from arguments text already parsed by {@link parseToolArguments}. */
export function assistantToolCallFromParsed(
  id: string,
  name: string,
  parsed: ParsedToolArguments,
): AssistantToolCall {
  const call: AssistantToolCall = { id, name, arguments: parsed.arguments, depends_on: [] };
  if (!parsed.ok) {
    call.raw_arguments = parsed.rawArguments;
    call.arguments_error = parsed.error;
  }
  return call;
}

/**
 * An assistant tool call from arguments that arrived already parsed (Anthropic's `input`).
 *
 * @internal
 */
export function assistantToolCallFromValue(
  id: string,
  name: string,
  input: unknown,
): AssistantToolCall {
  if (isJsonObject(input)) return { id, name, arguments: input, depends_on: [] };
  return {
    id,
    name,
    arguments: {},
    depends_on: [],
    raw_arguments: JSON.stringify(input ?? null),
    arguments_error: `The arguments must be a JSON object, not ${describeValue(input)}.`,
  };
}
