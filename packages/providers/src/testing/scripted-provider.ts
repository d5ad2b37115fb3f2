import { setTimeout as delay } from 'node:timers/promises';
import type {
  AssistantToolCall,
  Provider,
  ProviderEvent,
  ProviderRequest,
  ProviderTurn,
  Usage,
} from '@mtpx/protocol';
import { ProviderError } from '../provider-error';
import { providerTurn } from '../provider-turn';
import { assistantToolCall } from '../tool-arguments';
import { ToolCallAccumulator } from '../tool-call-accumulator';
import {
  type ScriptedTurn,
  scriptedArgumentsText,
  scriptedCallId,
  splitIntoChunks,
} from './scripted-turn';

/** A script: the turns in order, or a function that answers each request. */
export type Script =
  | readonly ScriptedTurn[]
  | ((request: ProviderRequest, turnIndex: number) => ScriptedTurn | Promise<ScriptedTurn>);

/** How a scripted provider paces its answers. */
export interface ScriptedProviderOptions {
  /** Milliseconds before a turn begins (the model's time to first token). Default 0. */
  latencyMs?: number;
  /** Milliseconds between streamed chunks. Default 0. */
  chunkDelayMs?: number;
  /** Characters per streamed chunk of text or arguments. Default 16. */
  chunkSize?: number;
  /** The model name it reports. Default `scripted`. */
  model?: string;
}

/** A {@link Provider} that replays a script, with the requests it received. */
export interface ScriptedProvider extends Provider {
  readonly name: 'scripted';
  /** Every request, in order (what an agent sent: messages and tools). */
  readonly requests: readonly ProviderRequest[];
}

const provider = 'scripted';
const zeroUsage: Usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

async function wait(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) throw cancelled(signal.reason);
  if (milliseconds <= 0) return;
  try {
    await delay(milliseconds, undefined, signal ? { signal } : undefined);
  } catch (error) {
    throw cancelled(error);
  }
}

function cancelled(cause: unknown): ProviderError {
  return new ProviderError({
    code: 'aborted',
    provider,
    message: `${provider}: the request was cancelled.`,
    cause,
  });
}

function finishReasonOf(turn: ScriptedTurn, calls: readonly AssistantToolCall[]) {
  return turn.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
}

function buildTurn(turn: ScriptedTurn, calls: AssistantToolCall[], model: string): ProviderTurn {
  return providerTurn({
    content: turn.text ?? (calls.length > 0 ? null : ''),
    toolCalls: calls,
    finishReason: finishReasonOf(turn, calls),
    usage: turn.usage ?? zeroUsage,
    model,
    responseId: undefined,
    providerParts: turn.providerParts,
    reasoning: turn.reasoning,
    refusal: turn.refusal,
  });
}

/**
 * A provider that replays scripted model answers — native tool calls or text — with no
 * network and no key: for offline demos, benchmarks and your own tests. `stream` sends
 * text and each call's arguments JSON in chunks and reports each call ready exactly as
 * the OpenAI adapter does (when the next call begins, or at the end), so eager dispatch
 * behaves as it would against a real API.
 *
 * Asking for more turns than a list holds throws `script_exhausted`.
 *
 * @example
 * ```ts source="./testing.examples.ts#scriptedProvider"
 * const provider = scriptedProvider([
 *   { toolCalls: [{ id: 'call_1', name: 'calculator.add', arguments: { a: 15, b: 27 } }] },
 *   { text: '15 + 27 = 42' },
 * ]);
 * ```
 */
export function scriptedProvider(
  script: Script,
  options: ScriptedProviderOptions = {},
): ScriptedProvider {
  const latencyMs = options.latencyMs ?? 0;
  const chunkDelayMs = options.chunkDelayMs ?? 0;
  const chunkSize = options.chunkSize ?? 16;
  const model = options.model ?? 'scripted';
  const requests: ProviderRequest[] = [];

  async function nextTurn(request: ProviderRequest): Promise<[ScriptedTurn, number]> {
    const turnIndex = requests.length;
    requests.push(request);
    if (typeof script === 'function') return [await script(request, turnIndex), turnIndex];
    const turn = script[turnIndex];
    if (turn === undefined) {
      throw new ProviderError({
        code: 'script_exhausted',
        provider,
        message: `${provider}: the script holds ${script.length} turn(s) and turn ${turnIndex + 1} was asked for.`,
      });
    }
    return [turn, turnIndex];
  }

  async function generate(request: ProviderRequest): Promise<ProviderTurn> {
    const [turn, turnIndex] = await nextTurn(request);
    await wait(latencyMs, request.signal);
    const calls = (turn.toolCalls ?? []).map((call, index) =>
      assistantToolCall(
        scriptedCallId(turnIndex, index, call),
        call.name,
        scriptedArgumentsText(call),
      ),
    );
    return buildTurn(turn, calls, model);
  }

  async function* stream(request: ProviderRequest): AsyncGenerator<ProviderEvent, void, undefined> {
    const [turn, turnIndex] = await nextTurn(request);
    const { signal } = request;
    await wait(latencyMs, signal);
    let first = true;
    const pace = async () => {
      if (!first) await wait(chunkDelayMs, signal);
      first = false;
    };
    if (turn.reasoning) {
      for (const piece of splitIntoChunks(turn.reasoning, chunkSize)) {
        await pace();
        yield { type: 'reasoning-delta', delta: piece };
      }
    }
    for (const part of turn.providerParts ?? []) {
      if (part.server_tool === undefined) continue;
      const { id, name } = part.server_tool;
      yield {
        type: 'server-tool-used',
        blockType: part.type,
        ...(id === undefined ? {} : { id }),
        ...(name === undefined ? {} : { name }),
      };
    }
    if (turn.text) {
      for (const piece of splitIntoChunks(turn.text, chunkSize)) {
        await pace();
        yield { type: 'text-delta', delta: piece };
      }
    }
    const accumulator = new ToolCallAccumulator({ provider, readiness: 'next-call-or-end' });
    // A refused turn reports no call ready, as the OpenAI adapter does after a refusal.
    const refused = turn.finishReason === 'refusal';
    const unlessRefused = (events: ProviderEvent[]) =>
      refused ? events.filter((event) => event.type !== 'tool-call-ready') : events;
    for (const [index, call] of (turn.toolCalls ?? []).entries()) {
      const pieces = splitIntoChunks(scriptedArgumentsText(call), chunkSize);
      for (const [pieceIndex, piece] of pieces.entries()) {
        await pace();
        yield* unlessRefused(
          accumulator.push({
            index,
            ...(pieceIndex === 0
              ? { id: scriptedCallId(turnIndex, index, call), name: call.name }
              : {}),
            argumentsDelta: piece,
          }),
        );
      }
    }
    yield* unlessRefused(accumulator.completeAll());
    const built = buildTurn(turn, accumulator.toolCalls(), model);
    if (built.usage) yield { type: 'usage', usage: built.usage };
    yield { type: 'finish', turn: built };
  }

  return {
    name: 'scripted',
    model,
    get requests() {
      return requests;
    },
    generate,
    stream,
  };
}
