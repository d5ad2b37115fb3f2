/**
 * The system instructions every agent sends before its own (turn them off with
 * `referenceInstructions: false`): put every call into ONE response, and chain calls with
 * `{"$ref": "call_N"}` — the positional alias of the model's Nth call in that response, or
 * an id from an earlier result — and `$path` (a JSON Pointer) for part of an output.
 *
 * Kept to one sentence pair because it rides on every request: 52 o200k tokens as text,
 * 61 added to a Chat Completions body (see the agent README for how the
 * tokens MTPX adds are measured).
 */
export const REFERENCE_INSTRUCTIONS =
  'Make all tool calls you can in one response. If an argument is another call\'s output, write {"$ref":"call_N"} (your Nth call here, or an earlier id); add "$path":"/a/0" for a part.';
