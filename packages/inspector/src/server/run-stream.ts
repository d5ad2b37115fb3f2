import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { safeParseJson } from '@mtpx/protocol';
import { tailLines } from './live-tail';

const endTypes = new Set(['run-finished', 'run-cancelled', 'run-failed']);

/**
 * A run's events as server-sent events: `event: run-event` with the event's JSON as data
 * and its position as `id` (so `Last-Event-ID` resumes), from event `from` on; once the
 * run has ended, `event: run-ended` and the stream closes. A run in progress streams its
 * events as the recorder writes them.
 */
export function streamRun(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  from: number,
  streams: Set<ServerResponse>,
  headers: Record<string, string>,
): void {
  if (!existsSync(path)) {
    const body = JSON.stringify({ error: { code: 'run_not_found', message: 'No such run.' } });
    response.writeHead(404, { ...headers, 'content-type': 'application/json; charset=utf-8' });
    response.end(body);
    return;
  }
  response.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    connection: 'keep-alive',
  });
  response.write(': mtpx-inspector\n\n');
  streams.add(response);
  let index = 0;
  let ended = false;
  const tail = tailLines(path, (line) => {
    const parsed = safeParseJson(line);
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return;
    const event = parsed.value as Record<string, unknown>;
    if (event.$record === 'mtpx-run' || typeof event.type !== 'string') return;
    index += 1;
    if (index > from) response.write(`id: ${index}\nevent: run-event\ndata: ${line}\n\n`);
    if (endTypes.has(event.type) && !ended) {
      ended = true;
      response.write(
        `event: run-ended\ndata: ${JSON.stringify({ type: event.type, events: index })}\n\n`,
      );
      close();
    }
  });
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
  heartbeat.unref();
  const close = () => {
    tail.stop();
    clearInterval(heartbeat);
    streams.delete(response);
    response.end();
  };
  request.on('close', close);
}
