import { isJsonObject } from '@mtpx/protocol';
import { sanitizeToolName } from '../tool-names';
import { anthropicMessage, anthropicMessageEvents } from './anthropic-wire';
import {
  type ModelServer,
  type RecordedRequest,
  type ResponseScript,
  type SseEvent,
  startModelServer,
} from './model-server';
import { openAIResponse, openAIResponseEvents } from './openai-responses-wire';
import { openAIChatCompletion, openAIChatCompletionChunks } from './openai-wire';
import { checkResponsesInput, type IssuedItem, rememberIssued } from './responses-input-rules';
import type { ScriptedTurn } from './scripted-turn';

/** How a scripted API server paces and shapes its answers. */
export interface ScriptedServerOptions {
  /** Milliseconds before the first byte of each answer. Default 0. */
  firstByteDelayMs?: number;
  /** Milliseconds between streamed events. Default 0. */
  chunkDelayMs?: number;
  /** Characters per streamed text or arguments fragment. Default 16. */
  chunkSize?: number;
  /** The model name the answers report. */
  model?: string;
  host?: string;
  port?: number;
}

/** The tool names a request offered (Chat Completions and Messages API shapes). */
function offeredToolNames(request: RecordedRequest): Set<string> {
  const names = new Set<string>();
  const tools = isJsonObject(request.body) ? request.body.tools : undefined;
  if (!Array.isArray(tools)) return names;
  for (const tool of tools) {
    if (!isJsonObject(tool)) continue;
    const fn = isJsonObject(tool.function) ? tool.function : tool;
    if (typeof fn.name === 'string') names.add(fn.name);
  }
  return names;
}

/**
 * The name a model would send for a scripted tool: the scripted name when the request
 * offered it, else its sanitized form when that was offered (`calculator.add` →
 * `calculator_add`), else the scripted name unchanged (an unknown tool).
 */
function wireToolName(request: RecordedRequest): (name: string) => string {
  const offered = offeredToolNames(request);
  return (name) => {
    if (offered.has(name)) return name;
    const sanitized = sanitizeToolName(name);
    return offered.has(sanitized) ? sanitized : name;
  };
}

function turnAt(turns: readonly ScriptedTurn[], index: number): ScriptedTurn | ResponseScript {
  return (
    turns[index] ?? {
      type: 'json',
      status: 500,
      headers: { 'x-should-retry': 'false' },
      body: {
        type: 'error',
        error: {
          type: 'api_error',
          message: `scripted server: the script holds ${turns.length} turn(s) and turn ${index + 1} was asked for.`,
        },
      },
    }
  );
}

function isResponseScript(value: ScriptedTurn | ResponseScript): value is ResponseScript {
  return 'type' in value;
}

function wantsStream(request: RecordedRequest): boolean {
  return isJsonObject(request.body) && request.body.stream === true;
}

/** The wire options every scripted answer is written with. */
interface ScriptedWire {
  turnIndex: number;
  toolName: (name: string) => string;
  model?: string;
  chunkSize?: number;
}

/** How one API writes a scripted turn: whole, or as the events of a stream. */
interface TurnEncoding {
  /** The API's refusal of a request that breaks its rules, before any turn is played. */
  refuse?(request: RecordedRequest): ResponseScript | undefined;
  whole(turn: ScriptedTurn, wire: ScriptedWire, request: RecordedRequest): unknown;
  streamed(turn: ScriptedTurn, wire: ScriptedWire, request: RecordedRequest): SseEvent[];
}

/**
 * A model server that answers each request with the next scripted turn, written by
 * `encoding`: as JSON, or — when the request asks to stream — as SSE events, with the
 * configured time to first byte and delay between events.
 */
function startScriptedServer(
  turns: readonly ScriptedTurn[],
  options: ScriptedServerOptions,
  encoding: TurnEncoding,
): Promise<ModelServer> {
  return startModelServer({
    ...(options.host === undefined ? {} : { host: options.host }),
    ...(options.port === undefined ? {} : { port: options.port }),
    responses: (request, index) => {
      const refused = encoding.refuse?.(request);
      if (refused !== undefined) return refused;
      const turn = turnAt(turns, index);
      if (isResponseScript(turn)) return turn;
      const wire: ScriptedWire = {
        turnIndex: index,
        toolName: wireToolName(request),
        ...(options.model === undefined ? {} : { model: options.model }),
      };
      if (!wantsStream(request)) {
        return {
          type: 'json',
          body: encoding.whole(turn, wire, request),
          delayMs: options.firstByteDelayMs ?? 0,
        };
      }
      const streamWire = {
        ...wire,
        ...(options.chunkSize === undefined ? {} : { chunkSize: options.chunkSize }),
      };
      return {
        type: 'sse',
        events: encoding.streamed(turn, streamWire, request),
        firstByteDelayMs: options.firstByteDelayMs ?? 0,
        chunkDelayMs: options.chunkDelayMs ?? 0,
      };
    },
  });
}

/** True for a Responses API request (`POST …/responses`). */
const isResponsesRequest = (request: RecordedRequest) =>
  request.path.split('?')[0]?.endsWith('/responses') === true;

/**
 * An OpenAI server on 127.0.0.1 that plays a scripted model: each request gets the next
 * turn, as JSON or — when the request asks to stream — as SSE events with the configured
 * time to first byte and delay between events. It speaks both OpenAI wires: Chat
 * Completions on `…/chat/completions`, the Responses API on `…/responses`. Point any
 * OpenAI client at `${server.url}/v1`. For benchmarks, demos and tests.
 *
 * @example
 * ```ts source="./testing.examples.ts#startScriptedOpenAIServer"
 * const server = await startScriptedOpenAIServer(
 *   [
 *     { toolCalls: [{ id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: 2 } }] },
 *     { text: '3' },
 *   ],
 *   { firstByteDelayMs: 300, chunkDelayMs: 20 },
 * );
 * ```
 */
export function startScriptedOpenAIServer(
  turns: readonly ScriptedTurn[],
  options: ScriptedServerOptions = {},
): Promise<ModelServer> {
  // The Responses wire checks each request as the API does: a reasoning item with the
  // item that followed it, a function_call_output for a call of the input, references
  // only to stored items, encrypted content only as issued.
  const issued = new Map<string, IssuedItem>();
  const responsesAnswer = (turn: ScriptedTurn, wire: ScriptedWire, request: RecordedRequest) => {
    const body = isJsonObject(request.body) ? request.body : {};
    const include = Array.isArray(body.include) ? body.include : [];
    const whole = openAIResponse(turn, {
      ...wire,
      encryptedReasoning: include.includes('reasoning.encrypted_content'),
    });
    rememberIssued(issued, whole.output as Array<Record<string, unknown>>, body.store !== false);
    return whole;
  };
  return startScriptedServer(turns, options, {
    refuse: (request) =>
      isResponsesRequest(request) && isJsonObject(request.body)
        ? checkResponsesInput(request.body, issued)
        : undefined,
    whole: (turn, wire, request) =>
      isResponsesRequest(request)
        ? responsesAnswer(turn, wire, request)
        : openAIChatCompletion(turn, wire),
    streamed: (turn, wire, request) => {
      if (isResponsesRequest(request)) {
        const whole = responsesAnswer(turn, wire, request);
        return openAIResponseEvents(turn, {
          ...wire,
          encryptedReasoning: (whole.output as Array<{ encrypted_content?: unknown }>).some(
            (item) => item.encrypted_content !== undefined,
          ),
        });
      }
      const body = isJsonObject(request.body) ? request.body : {};
      const streamOptions = isJsonObject(body.stream_options) ? body.stream_options : {};
      return openAIChatCompletionChunks(turn, {
        ...wire,
        includeUsage: streamOptions.include_usage === true,
      });
    },
  });
}

/**
 * An Anthropic Messages API server on 127.0.0.1 that plays a scripted model, like
 * {@link startScriptedOpenAIServer}. Point an Anthropic client at `server.url`.
 */
export function startScriptedAnthropicServer(
  turns: readonly ScriptedTurn[],
  options: ScriptedServerOptions = {},
): Promise<ModelServer> {
  return startScriptedServer(turns, options, {
    whole: anthropicMessage,
    streamed: anthropicMessageEvents,
  });
}
