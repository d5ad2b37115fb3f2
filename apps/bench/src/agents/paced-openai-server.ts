import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isJsonObject, safeParseJson } from '@mtpx/protocol';
import { openAIChatCompletionChunks, type ScriptedTurn } from '@mtpx/providers/testing';
import { now } from '../support/clock';

/** Server-sent events written together, `atMs` after the request arrived. */
export interface PacedGroup {
  atMs: number;
  /** The `data:` text of each event (a chunk's JSON, or `[DONE]`). */
  events: string[];
}

/** A running paced server. */
export interface PacedServer {
  /** `http://127.0.0.1:<port>`; clients use `${url}/v1`. */
  url: string;
  /** Every request's parsed body, in order. */
  readonly requests: ReadonlyArray<{ body: unknown }>;
  close(): Promise<void>;
}

/**
 * A scripted OpenAI-compatible Chat Completions server (streaming only) whose events
 * arrive at given times after each request: what `startScriptedOpenAIServer` does, but
 * with one time per group of events instead of one delay between all of them, so a
 * response can stream its tool calls 100 ms apart and end right after the last. Each
 * group is timed from the request's arrival, so timer overshoot does not add up.
 */
export async function startPacedOpenAIServer(
  script: ReadonlyArray<readonly PacedGroup[]>,
): Promise<PacedServer> {
  const requests: Array<{ body: unknown }> = [];
  const pending = new Set<NodeJS.Timeout>();
  const server: Server = createServer((request, response) => {
    const arrived = now();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const parsed = safeParseJson(Buffer.concat(chunks).toString('utf8'));
      const body = parsed.ok ? parsed.value : undefined;
      const groups = script[requests.length];
      requests.push({ body });
      if (!groups || !isJsonObject(body) || body.stream !== true) {
        response.writeHead(500, { 'content-type': 'application/json', 'x-should-retry': 'false' });
        response.end(
          JSON.stringify({
            error: { message: `paced server: no streamed turn ${requests.length} in the script` },
          }),
        );
        return;
      }
      let next = 0;
      const writeDue = () => {
        const group = groups[next] as PacedGroup;
        if (next === 0) {
          response.writeHead(200, {
            'content-type': 'text/event-stream',
            'cache-control': 'no-cache',
            connection: 'keep-alive',
          });
        }
        response.write(group.events.map((data) => `data: ${data}\n\n`).join(''));
        next += 1;
        if (next === groups.length) response.end();
        else schedule();
      };
      const schedule = () => {
        const group = groups[next] as PacedGroup;
        const timer = setTimeout(
          () => {
            pending.delete(timer);
            if (!response.destroyed) writeDue();
          },
          Math.max(0, group.atMs - (now() - arrived)),
        );
        pending.add(timer);
      };
      schedule();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of pending) clearTimeout(timer);
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
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
