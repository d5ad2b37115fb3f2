import { shorten } from '@mtpx/example-kit';
import type { JsonObject, JsonValue } from '@mtpx/protocol';

/**
 * What crossed the wire for a tool call, as this client saw it: the calls it sent (a
 * 2026-07-28 retry carries `inputResponses` and the echoed `requestState`), what came
 * back (`input_required`, or the result), and — in the 2025 era — the server's own
 * requests inside the call (`elicitation/create`) and the client's answers to them.
 */
export type TrafficEvent =
  | {
      kind: 'call-sent';
      name: string;
      arguments: JsonObject;
      /** Keys of the answers this retry carries (2026-07-28). */
      answered: string[];
      /** Length of the echoed, signed request state. */
      stateLength?: number;
    }
  | {
      kind: 'input-required';
      /** What the server asks for, by key: `date → elicitation/create`. */
      requests: { key: string; method: string }[];
      stateLength?: number;
    }
  | { kind: 'result'; isError: boolean }
  | { kind: 'server-request'; method: string }
  | { kind: 'server-request-answered'; method: string; action?: string }
  | { kind: 'error'; code: number; message: string };

type Message = JsonObject & { id?: string | number; method?: string };

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A transport's public surface, as far as watching it goes. */
interface WatchedTransport {
  send(message: unknown, ...rest: unknown[]): Promise<void>;
  onmessage?: ((message: unknown, ...rest: unknown[]) => void) | undefined;
}

/**
 * Wraps an MCP client transport so every `tools/call` exchange is reported to `onTraffic`
 * as it happens: outgoing messages before they are sent, incoming ones before the client
 * handles them (so the terminal shows the server's question before the user's answer).
 * Everything else passes through untouched.
 */
export function watchTraffic<TTransport extends object>(
  transport: TTransport,
  onTraffic: (event: TrafficEvent) => void,
): TTransport {
  const calls = new Set<string | number>();
  const serverRequests = new Map<string | number, string>();

  const outgoing = (message: Message) => {
    if (message.method === 'tools/call' && message.id !== undefined && isObject(message.params)) {
      calls.add(message.id);
      const params = message.params;
      const answers = isObject(params.inputResponses) ? Object.keys(params.inputResponses) : [];
      onTraffic({
        kind: 'call-sent',
        name: String(params.name),
        arguments: isObject(params.arguments) ? params.arguments : {},
        answered: answers,
        ...(typeof params.requestState === 'string'
          ? { stateLength: params.requestState.length }
          : {}),
      });
    } else if (
      message.method === undefined &&
      message.id !== undefined &&
      serverRequests.has(message.id)
    ) {
      const method = serverRequests.get(message.id) as string;
      serverRequests.delete(message.id);
      const action = isObject(message.result) ? message.result.action : undefined;
      onTraffic({
        kind: 'server-request-answered',
        method,
        ...(typeof action === 'string' ? { action } : {}),
      });
    }
  };

  const incoming = (message: Message) => {
    if (message.method !== undefined && message.id !== undefined) {
      serverRequests.set(message.id, message.method);
      onTraffic({ kind: 'server-request', method: message.method });
      return;
    }
    if (message.id === undefined || !calls.has(message.id)) return;
    calls.delete(message.id);
    if (isObject(message.error)) {
      onTraffic({
        kind: 'error',
        code: Number(message.error.code),
        message: String(message.error.message),
      });
      return;
    }
    const result = isObject(message.result) ? message.result : {};
    if (result.resultType === 'input_required') {
      const requests = isObject(result.inputRequests) ? result.inputRequests : {};
      onTraffic({
        kind: 'input-required',
        requests: Object.entries(requests).map(([key, request]) => ({
          key,
          method: isObject(request) ? String(request.method) : 'unknown',
        })),
        ...(typeof result.requestState === 'string'
          ? { stateLength: result.requestState.length }
          : {}),
      });
      return;
    }
    onTraffic({ kind: 'result', isError: result.isError === true });
  };

  const watched = transport as TTransport & WatchedTransport;
  return new Proxy(watched, {
    get(target, property) {
      if (property === 'send')
        return (message: unknown, ...rest: unknown[]) => {
          if (isObject(message)) outgoing(message as Message);
          return target.send(message, ...rest);
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value: unknown) {
      if (property === 'onmessage' && typeof value === 'function') {
        target.onmessage = (message: unknown, ...rest: unknown[]) => {
          if (isObject(message)) incoming(message as Message);
          (value as (message: unknown, ...rest: unknown[]) => void)(message, ...rest);
        };
        return true;
      }
      return Reflect.set(target, property, value, target);
    },
  });
}

/** A value shortened for one line of output. */
export function compactJson(value: JsonValue | undefined, length = 80): string {
  return shorten(JSON.stringify(value) ?? 'undefined', length);
}
