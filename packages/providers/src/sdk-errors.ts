import { isJsonObject } from '@mtpx/protocol';
import { ProviderError } from './provider-error';

/** Where a failure happened: before the response began, or while it streamed. */
export type FailurePhase = 'request' | 'stream';

/** What {@link toProviderError} needs to describe a failure. */
export interface FailureContext {
  /** The provider's label, used as the message prefix (`openai`, `groq`, `anthropic`). */
  provider: string;
  /** The caller's signal: when it has fired, any failure is a cancellation. */
  signal?: AbortSignal | undefined;
  phase: FailurePhase;
  /** The base URL the request went to: a connection failure names it. */
  baseURL?: string | undefined;
}

function errorClassName(error: object): string {
  const name = (error as { name?: unknown }).name;
  if (typeof name === 'string' && name !== 'Error') return name;
  return error.constructor?.name ?? 'Error';
}

function stringField(value: unknown, key: string): string | undefined {
  if (!isJsonObject(value)) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/**
 * The API's own message and type. The `openai` SDK keeps the body's `error` object
 * (`{ message, type, code }`); `@anthropic-ai/sdk` keeps the whole body
 * (`{ type: "error", error: { type, message } }`). Both shapes are read here.
 */
function apiErrorDetails(error: Record<string, unknown>): { message?: string; code?: string } {
  const body = error.error;
  if (typeof body === 'string' && body !== '') return { message: body };
  const inner = isJsonObject(body) ? (body as Record<string, unknown>).error : undefined;
  const message =
    stringField(body, 'message') ??
    stringField(inner, 'message') ??
    (typeof error.apiMessage === 'string' ? error.apiMessage : undefined);
  const code =
    stringField(body, 'code') ??
    stringField(inner, 'type') ??
    stringField(body, 'type') ??
    undefined;
  return { ...(message === undefined ? {} : { message }), ...(code === undefined ? {} : { code }) };
}

/**
 * What lies under an SDK's connection error (`ECONNREFUSED`, `getaddrinfo ENOTFOUND …`),
 * without the SDK's own "Connection error." that says nothing more.
 */
function connectionDetail(error: unknown): string {
  const seen = new Set<unknown>();
  let current: unknown = (error as { cause?: unknown }).cause;
  let detail = '';
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    detail = typeof code === 'string' && code !== '' ? code : current.message;
    current = current.cause;
  }
  return detail;
}

/** Stream-level error types that mean "try again later" rather than "your request is wrong". */
const transientErrorTypes = new Set([
  'overloaded_error',
  'rate_limit_error',
  'api_error',
  'timeout_error',
  'server_error',
  'rate_limit_exceeded',
]);

/**
 * Turns whatever an SDK call threw into a {@link ProviderError}. The `openai` and
 * `@anthropic-ai/sdk` errors are recognised by shape and class name, not `instanceof`,
 * so a client built from another copy of the SDK is understood too.
 */
export function toProviderError(error: unknown, context: FailureContext): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const { provider } = context;
  if (context.signal?.aborted) {
    return new ProviderError({
      code: 'aborted',
      provider,
      message: `${provider}: the request was cancelled.`,
      cause: error,
    });
  }
  if (typeof error !== 'object' || error === null) {
    return new ProviderError({
      code: context.phase === 'stream' ? 'stream_interrupted' : 'connection_error',
      provider,
      message: `${provider}: the request failed: ${String(error)}`,
      cause: error,
    });
  }
  const fields = error as Record<string, unknown>;
  const className = errorClassName(error);
  const sdkMessage = typeof fields.message === 'string' ? fields.message : String(error);
  const requestId = typeof fields.requestID === 'string' ? fields.requestID : undefined;
  const base = { provider, cause: error, ...(requestId === undefined ? {} : { requestId }) };

  if (className === 'APIUserAbortError' || className === 'AbortError') {
    return new ProviderError({
      ...base,
      code: 'aborted',
      message: `${provider}: the request was cancelled.`,
    });
  }
  if (className === 'APIConnectionTimeoutError') {
    return new ProviderError({
      ...base,
      code: 'timeout',
      message: `${provider}: the request timed out.`,
    });
  }
  if (className === 'APIConnectionError') {
    const where = context.baseURL === undefined ? 'the API' : context.baseURL;
    const detail = connectionDetail(error);
    return new ProviderError({
      ...base,
      code: 'connection_error',
      ...(context.baseURL === undefined ? {} : { baseURL: context.baseURL }),
      message: `${provider}: could not reach ${where}${detail === '' ? '' : ` (${detail})`}.`,
    });
  }
  const status = typeof fields.status === 'number' ? fields.status : undefined;
  if (status !== undefined || 'error' in fields) {
    const details = apiErrorDetails(fields);
    const providerMessage = details.message ?? sdkMessage;
    const shown = status === undefined ? providerMessage : `${status} ${providerMessage}`;
    const code =
      status === 401 || status === 403
        ? 'authentication'
        : status === 404
          ? 'not_found'
          : 'api_error';
    return new ProviderError({
      ...base,
      code,
      message: `${provider}: ${shown}`,
      providerMessage,
      ...(status === undefined ? {} : { status }),
      ...(details.code === undefined ? {} : { providerCode: details.code }),
      // An error event inside a stream has no status: judge it by its type.
      ...(status === undefined
        ? { isRetryable: details.code !== undefined && transientErrorTypes.has(details.code) }
        : {}),
    });
  }
  if (className === 'SyntaxError') {
    return new ProviderError({
      ...base,
      code: context.phase === 'stream' ? 'invalid_stream' : 'invalid_response',
      message: `${provider}: the API sent data that is not valid JSON: ${sdkMessage}`,
    });
  }
  if (context.phase === 'stream') {
    return new ProviderError({
      ...base,
      code: 'stream_interrupted',
      message: `${provider}: the response stream broke off: ${sdkMessage}`,
    });
  }
  // Not an API answer and not a connection failure: the SDK refused the request itself
  // (missing credentials, a `max_tokens` too large for a non-streamed call, …).
  return new ProviderError({
    ...base,
    code: 'invalid_options',
    message: `${provider}: the request could not be sent: ${sdkMessage}`,
  });
}
