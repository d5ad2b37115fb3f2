import { afterEach } from 'vitest';
import { type ModelServer, type ResponseScript, startModelServer } from '../testing/model-server';
import { asSse, type RecordedStream } from './responses-recordings';

type Json = Record<string, unknown>;

const invalid = (status: number, message: string, extra: Json = {}): ResponseScript => ({
  type: 'json',
  status,
  headers: { 'x-should-retry': 'false' },
  body: { error: { message, type: 'invalid_request_error', param: 'input', code: null, ...extra } },
});

/** What the server answered: each output item, the response it belongs to, and whether it was stored. */
interface Issued {
  item: Json;
  next: Json | undefined;
  previous: Json | undefined;
  stored: boolean;
}

/**
 * The Responses API's checks of a request's input against what it answered before (the
 * bodies in `responses/SOURCES.md`): stored items may be referenced, unstored ones not; a
 * reasoning item goes with the item that followed it, and that item with its reasoning;
 * a `function_call_output` answers a call of the input; encrypted content must be what
 * was issued. `undefined` when the request is fine.
 */
export function checkResponsesInput(body: Json, issued: ReadonlyMap<string, Issued>): ResponseScript | undefined {
  const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
  const resolved = input.map((entry) => {
    if (entry.type !== 'item_reference') return { entry, item: entry, id: entry.id as string | undefined };
    const id = String(entry.id);
    return { entry, item: issued.get(id)?.item, id };
  });
  const callIds = new Set<string>();
  for (const [position, { entry, item, id }] of resolved.entries()) {
    const known = id === undefined ? undefined : issued.get(id);
    if (entry.type === 'item_reference' && (known === undefined || !known.stored)) {
      return notStored(id as string);
    }
    if (entry.type === 'reasoning' && id !== undefined) {
      if (typeof entry.encrypted_content === 'string') {
        if (known !== undefined && entry.encrypted_content !== known.item.encrypted_content) {
          return invalid(400, `The encrypted content ${shortened(entry.encrypted_content)} could not be verified.`, {
            param: null,
            code: 'invalid_encrypted_content',
          });
        }
      } else if (known === undefined || !known.stored) {
        return notStored(id);
      }
    }
    const type = String(item?.type ?? entry.type ?? 'message');
    if (type === 'reasoning' && known?.next !== undefined) {
      if (resolved[position + 1]?.id !== known.next.id) {
        return invalid(400, `Item '${id}' of type 'reasoning' was provided without its required following item.`);
      }
    }
    if (known?.previous?.type === 'reasoning' && resolved[position - 1]?.id !== known.previous.id) {
      return invalid(
        400,
        `Item '${id}' of type '${type}' was provided without its required 'reasoning' item: '${String(known.previous.id)}'.`,
      );
    }
    if (type === 'function_call' && typeof item?.call_id === 'string') callIds.add(item.call_id);
    if (entry.type === 'function_call_output' && !callIds.has(String(entry.call_id))) {
      return invalid(400, `No tool call found for function call output with call_id ${String(entry.call_id)}.`);
    }
  }
  return undefined;
}

const shortened = (text: string) => `${text.slice(0, 4)}...${text.slice(-4)}`;

const notStored = (id: string) =>
  invalid(
    404,
    `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
  );

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
      const issued = new Map<string, Issued>();
      let answered = 0;
      current = await startModelServer({
        responses: (request) => {
          const body = (request.body ?? {}) as Json;
          const refused = checkResponsesInput(body, issued);
          if (refused !== undefined) return refused;
          const stream = answers[answered];
          if (stream === undefined) return invalid(400, 'replay server: no recorded answer left');
          const events = answerFor(stream, body);
          const items = events
            .filter((event) => event.type === 'response.output_item.done')
            .map((event) => event.item as Json);
          items.forEach((item, index) => {
            if (typeof item.id !== 'string') return;
            issued.set(item.id, {
              item,
              next: items[index + 1],
              previous: items[index - 1],
              stored: body.store !== false,
            });
          });
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
