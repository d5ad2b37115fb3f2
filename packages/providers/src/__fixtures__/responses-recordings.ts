import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { safeParseJson } from '@mtpx/protocol';
import type { SseEvent } from '../testing/model-server';

type Json = Record<string, unknown>;
const directory = join(import.meta.dirname, 'responses');

/** One recorded Responses stream: its events as parsed JSON, in order. */
export type RecordedStream = Json[];

/**
 * A recorded `*.chunks.txt` file: one event's data a line. Some recordings hold several
 * responses of one run back to back (a multi-step run): they are split at each
 * `response.created`.
 */
export function recordedStreams(name: string): RecordedStream[] {
  const streams: RecordedStream[] = [];
  for (const line of readFileSync(join(directory, name), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const parsed = safeParseJson(line);
    if (!parsed.ok) throw new Error(`${name}: a line that is not JSON: ${line.slice(0, 80)}`);
    const event = parsed.value as Json;
    if (event.type === 'response.created' || streams.length === 0) streams.push([]);
    streams.at(-1)?.push(event);
  }
  return streams;
}

/** A recorded whole response (`*.json`). */
export function recordedResponse(name: string): Json {
  const parsed = safeParseJson(readFileSync(join(directory, name), 'utf8'));
  if (!parsed.ok) throw parsed.error;
  return parsed.value as Json;
}

/** The recordings in the folder, by kind. */
export function recordingNames(): { streams: string[]; bodies: string[] } {
  const names = readFileSync(join(directory, 'SOURCES.md'), 'utf8')
    .split('\n')
    .flatMap((line) => /^\| `([^`]+\.(?:chunks\.txt|json))`/.exec(line)?.slice(1, 2) ?? []);
  return {
    streams: names.filter((name) => name.endsWith('.chunks.txt')),
    bodies: names.filter((name) => name.endsWith('.json')),
  };
}

/** Events as server-sent events, named by their type (as the API sends them). */
export function asSse(events: readonly Json[]): SseEvent[] {
  return events.map((event) => ({ event: String(event.type), data: JSON.stringify(event) }));
}

/** What a recording holds, read straight from its items (not through the adapter). */
export interface RecordedOutcome {
  calls: Array<{ id: string; name: string; arguments: unknown }>;
  text: string;
  reasoning: string | undefined;
  usage: Json | undefined;
  status: string | undefined;
  error: Json | undefined;
}

const texts = (list: unknown, type: string): string[] =>
  Array.isArray(list)
    ? list.flatMap((entry: Json) =>
        entry?.type === type && typeof entry.text === 'string' && entry.text !== '' ? [entry.text] : [],
      )
    : [];

/** The outcome of a response's output items and final response. */
export function outcomeOf(items: readonly Json[], response: Json | undefined): RecordedOutcome {
  const calls = items
    .filter((item) => item.type === 'function_call')
    .map((item) => {
      const parsed = safeParseJson(String(item.arguments ?? ''));
      return {
        id: String(item.call_id),
        name: String(item.name),
        arguments: parsed.ok ? parsed.value : undefined,
      };
    });
  const text = items
    .filter((item) => item.type === 'message')
    .map((item) => texts(item.content, 'output_text').join(''))
    .filter((each) => each !== '')
    .join('\n\n');
  const reasoning = items
    .filter((item) => item.type === 'reasoning')
    .map((item) => {
      const summaries = texts(item.summary, 'summary_text');
      return (summaries.length > 0 ? summaries : texts(item.content, 'reasoning_text')).join('\n\n');
    })
    .filter((each) => each !== '')
    .join('\n\n');
  return {
    calls,
    text,
    reasoning: reasoning === '' ? undefined : reasoning,
    usage: (response?.usage as Json | null | undefined) ?? undefined,
    status: typeof response?.status === 'string' ? response.status : undefined,
    error: (response?.error as Json | null | undefined) ?? undefined,
  };
}

/** The outcome of a recorded stream: its done items, or the final response's output. */
export function streamOutcome(events: RecordedStream): RecordedOutcome {
  const done = events
    .filter((event) => event.type === 'response.output_item.done')
    .sort((a, b) => Number(a.output_index) - Number(b.output_index))
    .map((event) => event.item as Json);
  const final = events.find((event) =>
    ['response.completed', 'response.incomplete', 'response.failed'].includes(String(event.type)),
  )?.response as Json | undefined;
  const items = done.length > 0 ? done : ((final?.output as Json[] | undefined) ?? []);
  return outcomeOf(items, final);
}

/**
 * A recorded whole response, sent as the stream the API sends for it: `response.created`,
 * each item added, its deltas (arguments, text, summaries) and done, then
 * `response.completed` (or `incomplete` / `failed`). For recordings that exist only whole.
 */
export function eventsFromResponse(response: Json): Json[] {
  const output = (response.output as Json[] | undefined) ?? [];
  const events: Json[] = [
    { type: 'response.created', response: { ...response, status: 'in_progress', output: [] } },
  ];
  output.forEach((item, index) => {
    const base = { output_index: index, item_id: item.id };
    if (item.type === 'function_call') {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, arguments: '' } });
      events.push({ type: 'response.function_call_arguments.delta', ...base, delta: item.arguments });
    } else if (item.type === 'message') {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, content: [] } });
      (item.content as Json[]).forEach((part, content_index) => {
        if (part.type === 'output_text') {
          events.push({ type: 'response.output_text.delta', ...base, content_index, delta: part.text });
        }
        if (part.type === 'refusal') {
          events.push({ type: 'response.refusal.delta', ...base, content_index, delta: part.refusal });
        }
      });
    } else if (item.type === 'reasoning') {
      events.push({ type: 'response.output_item.added', output_index: index, item: { ...item, summary: [] } });
      ((item.summary as Json[] | undefined) ?? []).forEach((part, summary_index) => {
        events.push({ type: 'response.reasoning_summary_text.delta', ...base, summary_index, delta: part.text });
      });
    } else {
      events.push({ type: 'response.output_item.added', output_index: index, item });
    }
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  const terminal =
    response.status === 'incomplete'
      ? 'response.incomplete'
      : response.status === 'failed'
        ? 'response.failed'
        : 'response.completed';
  events.push({ type: terminal, response });
  return events;
}

/** The SSE bytes of `events`, as the API writes them. */
export function sseText(events: readonly Json[]): string {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

/**
 * A `fetch` for the `openai` client that answers one stream, its bytes cut at random
 * places (UTF-8 sequences included), as a network may deliver them.
 */
export function splitStreamFetch(events: readonly Json[], seed: number): typeof fetch {
  const bytes = new TextEncoder().encode(sseText(events));
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return async () => {
    const pieces: Uint8Array[] = [];
    for (let start = 0; start < bytes.length; ) {
      const size = 1 + Math.floor(random() * 64);
      pieces.push(bytes.slice(start, start + size));
      start += size;
    }
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces.shift();
        if (next === undefined) controller.close();
        else controller.enqueue(next);
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}
