import { copy, derivedIdsFor, type Json, pieces, recordedChunks } from './recorded';
import { errorAnswer, type ReplayAnswer } from './replay-server';
import { seedCalls } from './seed-calls';

/**
 * The recorded Responses run of `openai-reasoning-encrypted-content.1.chunks.txt`
 * (gpt-5.1-codex-max, store: false, encrypted reasoning): four responses back to back,
 * split at each `response.created`.
 */
export function recordedResponses(): Json[][] {
  const streams: Json[][] = [];
  for (const event of recordedChunks(
    'openai-responses',
    'openai-reasoning-encrypted-content.1.chunks.txt',
  )) {
    if (event.type === 'response.created' || streams.length === 0) streams.push([]);
    streams.at(-1)?.push(event);
  }
  return streams;
}

/**
 * The seed's six calls in the recorded first response: its events up to and including the
 * reasoning item (ids, encrypted content, summary deltas unchanged), then the recorded
 * function call's events (added, argument deltas with their recorded `obfuscation`s,
 * arguments done, item done) once per call — the recorded call's ids for the first, the
 * same ids suffixed `_2` … `_6` for the others, the seed's names and arguments — and the
 * recorded `response.completed` with those items as its output. Sequence numbers follow.
 */
export function responsesSeedRound(): { events: Json[]; callIds: string[] } {
  const [first = []] = recordedResponses();
  const callStart = first.findIndex(
    (event) =>
      event.type === 'response.output_item.added' && (event.item as Json).type === 'function_call',
  );
  const completedAt = first.findIndex((event) => event.type === 'response.completed');
  const head = first.slice(0, callStart).map(copy);
  const template = first.slice(callStart, completedAt);
  const recordedItem = (template[0]?.item ?? {}) as Json;
  const deltas = template.filter(
    (event) => event.type === 'response.function_call_arguments.delta',
  );
  const callIds = derivedIdsFor(String(recordedItem.call_id));
  const itemIds = derivedIdsFor(String(recordedItem.id));
  const calls = seedCalls();
  const events: Json[] = [...head];
  const items: Json[] = [];
  calls.forEach((call, k) => {
    const outputIndex = 1 + k;
    const args = JSON.stringify(call.arguments);
    const item = { ...recordedItem, id: itemIds[k], call_id: callIds[k], name: call.wireName };
    events.push({
      ...copy(template[0]),
      output_index: outputIndex,
      item: { ...item, arguments: '' },
    });
    pieces(args, 4).forEach((delta, position) => {
      const recordedDelta = deltas[position % deltas.length] ?? {};
      events.push({
        ...copy(recordedDelta),
        item_id: itemIds[k],
        output_index: outputIndex,
        delta,
      });
    });
    const done =
      template.find((event) => event.type === 'response.function_call_arguments.done') ?? {};
    events.push({ ...copy(done), item_id: itemIds[k], output_index: outputIndex, arguments: args });
    const completed = { ...item, status: 'completed', arguments: args };
    items.push(completed);
    const itemDone = template.find((event) => event.type === 'response.output_item.done') ?? {};
    events.push({ ...copy(itemDone), output_index: outputIndex, item: completed });
  });
  const completed = copy(first[completedAt] as Json);
  const response = completed.response as Json;
  response.output = [(response.output as Json[])[0], ...items];
  events.push(completed);
  events.forEach((event, index) => {
    if ('sequence_number' in event) event.sequence_number = index;
  });
  return { events, callIds };
}

/** Events as the API's server-sent events. */
export function responsesWire(events: readonly Json[]): string[] {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}

const invalidRequest = (
  message: string,
  code: string | null = null,
  param: string | null = 'input',
) => errorAnswer(400, { error: { message, type: 'invalid_request_error', param, code } });

/**
 * How the Responses API checks a follow-up request (store: false): every function call it
 * issued must come back after the reasoning item that preceded it, with the encrypted
 * content it issued, unchanged; every `function_call_output` must answer a call. The
 * bodies are the API's own (see `SOURCES.md`).
 */
export function responsesRule(
  body: Json | undefined,
  issued: readonly Json[][],
): ReplayAnswer | undefined {
  const input = (body?.input as Json[] | undefined) ?? [];
  const reasoningBefore = new Map<string, Json>();
  const calls = new Set<string>();
  for (const item of input) {
    if (item.type === 'reasoning') reasoningBefore.set(String(item.id), item);
    if (item.type === 'function_call') calls.add(String(item.call_id));
    if (item.type === 'function_call_output' && !calls.has(String(item.call_id))) {
      return invalidRequest(
        `No tool call found for function call output with call_id ${String(item.call_id)}.`,
      );
    }
    if (item.type !== 'function_call') continue;
    for (const events of issued) {
      const done = events
        .filter((event) => event.type === 'response.output_item.done')
        .map((event) => event.item as Json);
      const position = done.findIndex((each) => each.call_id === item.call_id);
      if (position < 0) continue;
      const reasoning = done
        .slice(0, position)
        .reverse()
        .find((each) => each.type === 'reasoning');
      if (reasoning === undefined) continue;
      const sent = reasoningBefore.get(String(reasoning.id));
      if (sent === undefined) {
        return invalidRequest(
          `Item '${String(item.id ?? done[position]?.id)}' of type 'function_call' was provided without its required 'reasoning' item: '${String(reasoning.id)}'.`,
        );
      }
      if (sent.encrypted_content !== reasoning.encrypted_content) {
        const shown = String(sent.encrypted_content ?? '');
        return invalidRequest(
          `The encrypted content ${shown.slice(0, 4)}...${shown.slice(-4)} could not be verified.`,
          'invalid_encrypted_content',
          null,
        );
      }
    }
  }
  return undefined;
}
