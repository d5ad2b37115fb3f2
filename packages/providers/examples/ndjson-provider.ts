// A Provider for a made-up model API that streams newline-delimited JSON, written the way
// docs/guides/write-a-provider.md explains: fragments go through ToolCallAccumulator, which
// says when each call is complete, so the agent can start it while the model still writes.
//
//   POST {baseURL}/turn  { messages, tools }  →  one JSON object a line:
//   {"type":"text","text":"…"}
//   {"type":"call","index":0,"id":"c1","name":"calculator.add","arguments":"{\"a\":"}
//   {"type":"done","stop":"tool_calls","usage":{"input":12,"output":5}}
import type {
  AssistantMessage,
  FinishReason,
  Provider,
  ProviderEvent,
  ProviderRequest,
  ProviderTurn,
  Usage,
} from '@mtpx/protocol';
import { safeParseJson } from '@mtpx/protocol';
import { ProviderError, ToolCallAccumulator } from '@mtpx/providers';

/** What {@link createNdjsonProvider} needs. */
export interface NdjsonProviderOptions {
  baseURL: string;
  model: string;
}

type Line =
  | { type: 'text'; text: string }
  | { type: 'call'; index: number; id?: string; name?: string; arguments?: string }
  | { type: 'done'; stop: string; usage?: { input: number; output: number } };

function finishReason(stop: string): FinishReason {
  return stop === 'tool_calls' || stop === 'length' ? stop : 'stop';
}

/** The lines of a streamed body, as they arrive. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line !== '') yield line;
      newline = buffered.indexOf('\n');
    }
  }
  if (buffered.trim() !== '') yield buffered.trim();
}

/** A {@link Provider} for the NDJSON API at `baseURL`. */
export function createNdjsonProvider(options: NdjsonProviderOptions): Provider {
  const name = 'ndjson';

  async function* stream(request: ProviderRequest): AsyncGenerator<ProviderEvent> {
    let response: Response;
    try {
      response = await fetch(`${options.baseURL}/turn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: options.model,
          messages: request.messages,
          tools: request.tools,
        }),
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (cause) {
      throw new ProviderError({
        code: request.signal?.aborted ? 'aborted' : 'connection_error',
        provider: name,
        message: `${name}: could not reach ${options.baseURL}: ${(cause as Error).message}`,
        cause,
      });
    }
    if (!response.ok || response.body === null)
      throw new ProviderError({
        code: 'api_error',
        provider: name,
        status: response.status,
        message: `${name}: ${response.status} ${await response.text()}`,
      });

    // OpenAI-style indices: a call is complete once a later one begins, or the stream ends.
    const calls = new ToolCallAccumulator({ provider: name, readiness: 'next-call-or-end' });
    let text = '';
    for await (const raw of lines(response.body)) {
      // The model's output is untrusted: never JSON.parse it.
      const parsed = safeParseJson(raw);
      if (!parsed.ok)
        throw new ProviderError({
          code: 'invalid_stream',
          provider: name,
          message: `${name}: a line is not JSON`,
        });
      const line = parsed.value as Line;
      if (line.type === 'text') {
        text += line.text;
        yield { type: 'text-delta', delta: line.text };
      } else if (line.type === 'call') {
        yield* calls.push({
          index: line.index,
          id: line.id,
          name: line.name,
          argumentsDelta: line.arguments,
        });
      } else if (line.type === 'done') {
        yield* calls.completeAll();
        const usage: Usage | undefined = line.usage && {
          inputTokens: line.usage.input,
          outputTokens: line.usage.output,
          totalTokens: line.usage.input + line.usage.output,
        };
        if (usage) yield { type: 'usage', usage };
        const toolCalls = calls.toolCalls();
        const message: AssistantMessage = {
          role: 'assistant',
          content: text,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        };
        const turn: ProviderTurn = {
          message,
          finishReason: finishReason(line.stop),
          ...(usage ? { usage } : {}),
        };
        yield { type: 'finish', turn };
        return;
      }
    }
    // No `done` line: the calls still open must never run.
    throw new ProviderError({
      code: 'stream_interrupted',
      provider: name,
      message: `${name}: the stream ended before the turn did (${calls.incomplete().length} calls unfinished)`,
    });
  }

  return {
    name,
    model: options.model,
    stream,
    async generate(request) {
      for await (const event of stream(request)) if (event.type === 'finish') return event.turn;
      throw new ProviderError({
        code: 'invalid_stream',
        provider: name,
        message: `${name}: no finish`,
      });
    },
  };
}
