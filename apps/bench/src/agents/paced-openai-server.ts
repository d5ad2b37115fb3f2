import { setTimeout as sleep } from 'node:timers/promises';
import { isJsonObject } from '@mtpx/protocol';
import {
  type ModelServer,
  openAIChatCompletionChunks,
  type ResponseScript,
  type ScriptedTurn,
  startModelServer,
} from '@mtpx/providers/testing';
import { now } from '../support/clock';

/** Server-sent events written together, `atMs` after the request arrived. */
export interface PacedGroup {
  atMs: number;
  /** The `data:` text of each event (a chunk's JSON, or `[DONE]`). */
  events: string[];
}

/** Yields each group's events when its time after `arrived` has come. */
async function* pacedEvents(groups: readonly PacedGroup[], arrived: number) {
  for (const group of groups) {
    const wait = group.atMs - (now() - arrived);
    if (wait > 0) await sleep(wait);
    yield* group.events;
  }
}

/**
 * A scripted OpenAI-compatible Chat Completions server (streaming only) whose events
 * arrive at given times after each request: `startModelServer` fed by an async event
 * source, because `startScriptedOpenAIServer` paces all events by one delay, and row 4
 * needs its tool calls 100 ms apart and the stream to end right after the last. Each
 * group is timed from the request's arrival, so timer overshoot does not add up.
 */
export function startPacedOpenAIServer(
  script: ReadonlyArray<readonly PacedGroup[]>,
): Promise<ModelServer> {
  return startModelServer({
    responses: (request, index): ResponseScript => {
      const arrived = now();
      const groups = script[index];
      if (!groups || !isJsonObject(request.body) || request.body.stream !== true) {
        return {
          type: 'json',
          status: 500,
          headers: { 'x-should-retry': 'false' },
          body: { error: { message: `paced server: no streamed turn ${index + 1} in the script` } },
        };
      }
      return { type: 'sse', events: pacedEvents(groups, arrived) };
    },
  });
}

/**
 * A turn of tool calls streamed one call per `gapMs`: at `firstByteMs` the first call
 * whole and the start (id and name) of the second; `gapMs` later the second's arguments
 * and the start of the third; … ; the last call's arguments, `finish_reason`, usage and
 * `[DONE]` together. This is how a model streams calls whose arguments take time to
 * write, and a call is complete — by any client's rule — the moment its group arrives.
 */
export function toolCallsOneByOne(
  turn: ScriptedTurn,
  firstByteMs: number,
  gapMs: number,
): PacedGroup[] {
  const callCount = turn.toolCalls?.length ?? 0;
  if (callCount === 0) return [{ atMs: firstByteMs, events: eventData(turn) }];
  // role, then per call: its start (arguments '') and its whole arguments, then the tail.
  const events = eventData(turn);
  const start = (call: number) => events[1 + 2 * call] as string;
  const body = (call: number) => events[2 + 2 * call] as string;
  const tail = events.slice(1 + 2 * callCount);
  const groups: PacedGroup[] = [];
  for (let call = 0; call < callCount; call += 1) {
    const group: string[] = call === 0 ? [events[0] as string, start(0)] : [];
    group.push(body(call));
    if (call + 1 < callCount) group.push(start(call + 1));
    else group.push(...tail);
    groups.push({ atMs: firstByteMs + call * gapMs, events: group });
  }
  return groups;
}

/** The whole turn at `firstByteMs`, all at once. */
export function wholeTurnAt(turn: ScriptedTurn, firstByteMs: number): PacedGroup[] {
  return [{ atMs: firstByteMs, events: eventData(turn) }];
}

function eventData(turn: ScriptedTurn): string[] {
  // One fragment per call's arguments (no split), usage included, as OpenAI streams.
  return openAIChatCompletionChunks(turn, { chunkSize: 1_000_000, includeUsage: true }).map(
    (event) => (typeof event === 'string' ? event : event.data),
  );
}
