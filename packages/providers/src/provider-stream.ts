import type { ProviderEvent } from '@mtpx/protocol';
import { ProviderError } from './provider-error';
import { toProviderError } from './sdk-errors';
import { describeFailure, streamInterruptedError } from './stream-interruption';
import type { IncompleteToolCall } from './tool-call-accumulator';

/** Turns one API's stream, chunk by chunk, into provider events. */
export interface StreamAssembler<Chunk> {
  /** The events one chunk produces; throws `invalid_stream` for a chunk that breaks the rules. */
  push(chunk: Chunk): ProviderEvent[];
  /** The closing events once the chunks have run out; throws `stream_interrupted` when the response is not complete. */
  end(): ProviderEvent[];
  /** The calls that began but are not complete, for an interruption message. */
  readonly incomplete: readonly IncompleteToolCall[];
}

/** Sends a request through an SDK; whatever it throws becomes a {@link ProviderError}. */
export async function sendRequest<T>(
  provider: string,
  signal: AbortSignal | undefined,
  send: () => Promise<T>,
  baseURL?: string,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw toProviderError(error, { provider, signal, phase: 'request', baseURL });
  }
}

/**
 * One streamed turn, the same for every adapter: open the stream (a failure is the
 * request's), feed each chunk to the assembler, turn a broken connection into
 * `stream_interrupted` naming the incomplete calls, report a stream the SDK ended
 * quietly because `signal` fired as `aborted`, and close with the assembler's events.
 */
export async function* assembleProviderStream<Chunk>(options: {
  provider: string;
  signal: AbortSignal | undefined;
  open: () => Promise<AsyncIterable<Chunk>>;
  assembler: StreamAssembler<Chunk>;
  /** The base URL the request goes to, for a connection failure's message. */
  baseURL?: string;
}): AsyncGenerator<ProviderEvent, void, undefined> {
  const { provider, signal, assembler } = options;
  const chunks = await sendRequest(provider, signal, options.open, options.baseURL);
  try {
    for await (const chunk of chunks) yield* assembler.push(chunk);
  } catch (error) {
    if (ProviderError.isInstance(error)) throw error;
    const mapped = toProviderError(error, { provider, signal, phase: 'stream' });
    if (mapped.code !== 'stream_interrupted') throw mapped;
    throw streamInterruptedError({
      provider,
      reason: `the connection broke off: ${describeFailure(error)}`,
      incomplete: assembler.incomplete,
      cause: error,
    });
  }
  // The SDKs end a stream quietly when its request is aborted.
  if (signal?.aborted) {
    throw toProviderError(signal.reason, { provider, signal, phase: 'stream' });
  }
  yield* assembler.end();
}
