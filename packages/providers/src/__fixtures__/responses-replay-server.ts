import { afterEach } from 'vitest';
import { type ModelServer, type ResponseScript, startModelServer } from '../testing/model-server';
import {
  checkResponsesInput,
  type IssuedItem,
  rememberIssued,
} from '../testing/responses-input-rules';
import { asSse, type RecordedStream } from './responses-recordings';

type Json = Record<string, unknown>;

/** A recorded stream as the API would send it for `body`: without `encrypted_content` unless asked for. */
function answerFor(stream: RecordedStream, body: Json): Json[] {
  const include = Array.isArray(body.include) ? body.include : [];
  if (include.includes('reasoning.encrypted_content')) return stream;
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value == null || typeof value !== 'object') return value;
    const object = value as Json;
    if (object.type === 'reasoning' && 'encrypted_content' in object) {
      const { encrypted_content: _, ...rest } = object;
      return rest;
    }
    return Object.fromEntries(Object.entries(object).map(([key, each]) => [key, strip(each)]));
  };
  return stream.map((event) => strip(event) as Json);
}

/** The whole response a recorded stream ends with, holding the stream's items. */
function wholeResponse(events: readonly Json[], items: Json[]): Json {
  const final = events.find((event) =>
    ['response.completed', 'response.incomplete', 'response.failed'].includes(String(event.type)),
  )?.response as Json | undefined;
  return { ...final, output: items.length > 0 ? items : (final?.output ?? []) };
}

/**
 * A Responses replay server per test: each request is checked against what the server
 * answered before ({@link checkResponsesInput}), then answered with the next recorded
 * stream. `gate(k)`, when given, holds the k-th answer's events back until it resolves.
 */
export function responsesReplayServerPerTest() {
  let current: ModelServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    async start(
      answers: readonly RecordedStream[],
      options: { events?: (answer: number, events: Json[]) => ResponseScript } = {},
    ): Promise<ModelServer> {
      await current?.close();
      const issued = new Map<string, IssuedItem>();
      let answered = 0;
      current = await startModelServer({
        responses: (request) => {
          const body = (request.body ?? {}) as Json;
          const refused = checkResponsesInput(body, issued);
          if (refused !== undefined) return refused;
          const stream = answers[answered];
          if (stream === undefined) {
            return { type: 'json', status: 400, body: { error: { message: 'replay server: no recorded answer left' } } };
          }
          const events = answerFor(stream, body);
          const items = events
            .filter((event) => event.type === 'response.output_item.done')
            .map((event) => event.item as Json);
          rememberIssued(issued, items, body.store !== false);
          const script =
            options.events?.(answered, events) ??
            (body.stream === true
              ? { type: 'sse' as const, events: asSse(events) }
              : { type: 'json' as const, body: wholeResponse(events, items) });
          answered++;
          return script;
        },
      });
      return current;
    },
    get requests() {
      return current?.requests ?? [];
    },
  };
}
