import type { AgentEvent } from '@mtpx/agent';
import { createUIMessageStreamResponse } from 'ai';
import {
  type MtpxUIMessageChunk,
  UIChunkWriter,
  type UIChunkWriterOptions,
} from './ui-chunk-writer';

/** What {@link toUIMessageStream} takes besides the events. */
export type ToUIMessageStreamOptions = UIChunkWriterOptions;

/** What {@link toUIMessageStreamResponse} takes: the stream's options and the response's. */
export interface ToUIMessageStreamResponseOptions extends ToUIMessageStreamOptions {
  status?: number;
  statusText?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
}

/** Events an agent's `stream()` yields; an `AgentStream` is cancelled when the UI stream is. */
type AgentEvents = AsyncIterable<AgentEvent> & { cancel?: (reason?: unknown) => void };

/**
 * An MTPX agent's events (`agent.stream(input)`) as the AI SDK's UI message stream, so an
 * unchanged `useChat` front end renders the run: text, reasoning, each tool call with its
 * input (arguments as resolved: each `$ref` shown as the output it names), its output
 * (preliminary ones included) or error, and step boundaries. MTPX's own facts travel as
 * typed data parts a front end may use or ignore: `data-mtpx-call` (started while the
 * model was writing, held until the turn finished, its references), `data-mtpx-edge` (each
 * `$ref` edge) and `data-mtpx-run`. Cancelling the stream cancels the run.
 *
 * @example
 * ```ts source="./to-ui-message-stream.examples.ts#toUIMessageStream"
 * for await (const message of readUIMessageStream<MtpxUIMessage>({
 *   stream: toUIMessageStream(agent.stream('What is 2 + 3?')),
 * })) {
 *   console.log(message.parts.map((part) => part.type)); // ['step-start', 'tool-calculator.add', …]
 * }
 * ```
 */
export function toUIMessageStream(
  events: AgentEvents,
  options: ToUIMessageStreamOptions = {},
): ReadableStream<MtpxUIMessageChunk> {
  const writer = new UIChunkWriter(options);
  let iterator: AsyncIterator<AgentEvent> | undefined;
  return new ReadableStream<MtpxUIMessageChunk>({
    async pull(controller) {
      iterator ??= events[Symbol.asyncIterator]();
      try {
        // Pull events until one gives chunks, so each pull enqueues something or ends.
        for (;;) {
          const next = await iterator.next();
          if (next.done === true) {
            controller.close();
            return;
          }
          const chunks = writer.write(next.value);
          for (const chunk of chunks) controller.enqueue(chunk);
          if (writer.ended) {
            controller.close();
            return;
          }
          if (chunks.length > 0) return;
        }
      } catch (error) {
        controller.enqueue({ type: 'error', errorText: writer.errorText(error) });
        controller.close();
      }
    },
    async cancel(reason) {
      events.cancel?.(reason);
      await iterator?.return?.();
    },
  });
}

/**
 * {@link toUIMessageStream} as a `Response` the way the AI SDK's
 * `createUIMessageStreamResponse` sends it: server-sent events with the
 * `x-vercel-ai-ui-message-stream: v1` header, what `useChat`'s default transport reads.
 *
 * @example
 * ```ts source="./to-ui-message-stream.examples.ts#toUIMessageStreamResponse"
 * async function POST(request: Request): Promise<Response> {
 *   const { messages } = (await request.json()) as { messages: MtpxUIMessage[] };
 *   const last = messages.at(-1)?.parts.find((part) => part.type === 'text');
 *   return toUIMessageStreamResponse(agent.stream(last?.text ?? '', { signal: request.signal }));
 * }
 * ```
 */
export function toUIMessageStreamResponse(
  events: AgentEvents,
  options: ToUIMessageStreamResponseOptions = {},
): Response {
  const { status, statusText, headers, ...streamOptions } = options;
  return createUIMessageStreamResponse({
    stream: toUIMessageStream(events, streamOptions),
    ...(status === undefined ? {} : { status }),
    ...(statusText === undefined ? {} : { statusText }),
    ...(headers === undefined ? {} : { headers }),
  });
}
