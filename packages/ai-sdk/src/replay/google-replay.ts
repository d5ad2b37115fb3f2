import { copy, type Json, recordedChunks } from './recorded';
import { errorAnswer, type ReplayAnswer } from './replay-server';
import { seedCalls } from './seed-calls';

/** A recorded `streamGenerateContent` stream of `src/__fixtures__/google`. */
export const googleRecording = (name: string): Json[] => recordedChunks('google', name);

/**
 * The seed's six calls in one Gemini 3 stream: the recorded
 * `google-tool-call-gemini3.chunks.txt` (gemini-3-pro-preview) — a chunk holding one
 * `functionCall` part with its `thoughtSignature`, then the finishing chunk — with the
 * first chunk's part repeated once per call, the seed's names and `args`; the signature
 * stays on the first call only, as Gemini signs the first of parallel calls. Usage,
 * model version and response id unchanged.
 */
export function googleSeedRound(): { events: Json[] } {
  const [first, ...rest] = googleRecording('google-tool-call-gemini3.chunks.txt');
  const chunk = copy(first as Json);
  const candidate = (chunk.candidates as Json[])[0] as Json;
  const content = candidate.content as Json;
  const [recordedPart] = content.parts as Json[];
  content.parts = seedCalls().map((call, k) => {
    const part: Json = { functionCall: { name: call.wireName, args: call.arguments } };
    if (k === 0) part.thoughtSignature = (recordedPart as Json).thoughtSignature;
    return part;
  });
  return { events: [chunk, ...rest.map(copy)] };
}

/** Chunks as `alt=sse` server-sent events. */
export function googleWire(events: readonly Json[]): string[] {
  return events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`);
}

/** The model turns a stream issued: its parts, in order. */
function issuedParts(events: readonly Json[]): Json[] {
  return events.flatMap(
    (event) =>
      (((event.candidates as Json[] | undefined)?.[0]?.content as Json | undefined)?.parts as
        | Json[]
        | undefined) ?? [],
  );
}

/** The documented dummy signatures that make Gemini skip the check (what `@ai-sdk/google` injects). */
export const SKIP_SIGNATURES = [
  'skip_thought_signature_validator',
  'context_engineering_is_the_way_to_go',
];

/**
 * Gemini's check of a follow-up: a `functionCall` part it signed must come back with its
 * `thoughtSignature`, unchanged (or one of the documented dummy values that skip the
 * check), or 400 INVALID_ARGUMENT with the API's own message.
 */
export function googleRule(
  body: Json | undefined,
  issued: readonly Json[][],
): ReplayAnswer | undefined {
  const turns = ((body?.contents as Json[] | undefined) ?? [])
    .map((content, index) => ({ content, index }))
    .filter(({ content }) => content.role === 'model');
  for (const [k, { content, index }] of turns.entries()) {
    const original = issued[k];
    if (original === undefined) continue;
    const signed = issuedParts(original).filter((part) => part.functionCall !== undefined);
    const sent = ((content.parts as Json[] | undefined) ?? []).filter(
      (part) => part.functionCall !== undefined,
    );
    for (const [position, part] of signed.entries()) {
      if (part.thoughtSignature === undefined) continue;
      const carried = sent[position]?.thoughtSignature;
      if (carried === part.thoughtSignature || SKIP_SIGNATURES.includes(String(carried))) continue;
      const name = String((part.functionCall as Json).name);
      return errorAnswer(400, {
        error: {
          code: 400,
          message: `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
          status: 'INVALID_ARGUMENT',
        },
      });
    }
  }
  return undefined;
}
