/**
 * The system instructions every agent sends before its own (turn them off with
 * `referenceInstructions: false`): how to put a whole dependency chain into ONE response
 * with `$ref` / `$path`, the positional `call_N` aliases, and the spec's argument rules.
 */
export const REFERENCE_INSTRUCTIONS = [
  'Tool calling: put every tool call you can already write into ONE response; independent calls run in parallel.',
  'When an argument should be the output of another call, write {"$ref": "<call id>"} in its place instead of guessing or computing the value; add "$path" with a JSON Pointer to take part of it, e.g. {"$ref": "call_1", "$path": "/items/0/id"}. The call then runs as soon as the one it references has finished, in the same response.',
  'In a response, "call_1" names your 1st tool call of that response, "call_2" your 2nd, and so on; a reference may name only an earlier call. Calls of earlier responses are named by the ids shown with their results.',
  'Arguments must match the tool schema: JSON numbers, booleans, arrays and objects as such, never as quoted strings.',
  'When a result is an error, fix the call in your next response. When you need no more tools, answer in text.',
].join('\n');
