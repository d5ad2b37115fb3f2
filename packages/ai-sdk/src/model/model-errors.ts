import { safeParseJson } from '@mtpx/protocol';
import { ProviderError, type ProviderErrorCode } from '@mtpx/providers';

type Json = Record<string, unknown>;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The AI SDK's error name (`AI_APICallError`), read by shape: copies of the package may differ. */
function aiSdkErrorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

/**
 * The API's own message and code in an error body: OpenAI / Bedrock `{ error: { message,
 * type, code } }` or `{ message }`, Anthropic `{ type: "error", error: { type, message } }`,
 * Gemini `{ error: { code, message, status } }`.
 */
function bodyDetails(body: unknown): { message?: string; code?: string } {
  const parsed =
    typeof body === 'string' ? safeParseJson(body) : { ok: true as const, value: body };
  if (!parsed.ok || parsed.value == null || typeof parsed.value !== 'object') {
    return text(body) === undefined ? {} : { message: String(body).slice(0, 500) };
  }
  const root = parsed.value as Json;
  const inner = (root.error != null && typeof root.error === 'object' ? root.error : root) as Json;
  const message = text(inner.message) ?? text(root.message) ?? text(root.Message);
  const code =
    text(inner.code) ?? text(inner.type) ?? text(inner.status) ?? text(root.__type) ?? undefined;
  return { ...(message === undefined ? {} : { message }), ...(code === undefined ? {} : { code }) };
}

function headerOf(headers: unknown, ...names: string[]): string | undefined {
  if (headers == null || typeof headers !== 'object') return undefined;
  const record = headers as Record<string, unknown>;
  for (const name of names) {
    const value = text(record[name]);
    if (value !== undefined) return value;
  }
  return undefined;
}

function statusCode(status: number): ProviderErrorCode {
  if (status === 401 || status === 403) return 'authentication';
  if (status === 404) return 'not_found';
  return 'api_error';
}

/** True when the failure lies under a connection the fetch could not make. */
function isConnectionFailure(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Error && !seen.has(current); ) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(ECONN|ENOTFOUND|EAI_|ETIMEDOUT|UND_ERR)/.test(code)) {
      return true;
    }
    if (current.message === 'fetch failed') return true;
    current = current.cause;
  }
  return false;
}

/**
 * Whatever an AI SDK model threw, or sent as an `error` stream part, as a
 * {@link ProviderError}: an `APICallError` keeps its status, the API's own message and
 * code, its request id and the provider package's retryability; a missing key is
 * `missing_api_key`; an abort is `aborted`; a failed connection `connection_error`.
 */
export function providerErrorFromAiSdk(
  error: unknown,
  context: { provider: string; signal?: AbortSignal | undefined },
): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const { provider } = context;
  const name = aiSdkErrorName(error);
  const described = error instanceof Error ? error.message : String(error);
  if (context.signal?.aborted || name === 'AbortError') {
    return new ProviderError({
      code: 'aborted',
      provider,
      message: `${provider}: the request was cancelled.`,
      cause: error,
    });
  }
  if (name === 'AI_APICallError') {
    const call = error as unknown as Json;
    const status = typeof call.statusCode === 'number' ? call.statusCode : undefined;
    const details = bodyDetails(call.responseBody ?? call.data);
    const requestId = headerOf(
      call.responseHeaders,
      'x-request-id',
      'request-id',
      'x-amzn-requestid',
    );
    const url = text(call.url);
    const providerMessage = details.message ?? described;
    return new ProviderError({
      code: status === undefined ? 'connection_error' : statusCode(status),
      provider,
      message: `${provider}: ${status === undefined ? '' : `${status} `}${providerMessage}`,
      ...(status === undefined ? {} : { status }),
      ...(typeof call.isRetryable === 'boolean' ? { isRetryable: call.isRetryable } : {}),
      providerMessage,
      ...(details.code === undefined ? {} : { providerCode: details.code }),
      ...(requestId === undefined ? {} : { requestId }),
      ...(url === undefined ? {} : { baseURL: url }),
      cause: error,
    });
  }
  if (name === 'AI_LoadAPIKeyError') {
    return new ProviderError({
      code: 'missing_api_key',
      provider,
      message: `${provider}: ${described}`,
      cause: error,
    });
  }
  if (isConnectionFailure(error)) {
    return new ProviderError({
      code: 'connection_error',
      provider,
      message: `${provider}: the API could not be reached (${described}).`,
      cause: error,
    });
  }
  // An `error` stream part carries the API's error object as it came (Anthropic's
  // `overloaded_error`, OpenAI's `response.failed` error, Bedrock's exception events).
  const details = error instanceof Error ? {} : bodyDetails(error);
  const transient = /overloaded|rate_limit|throttl|unavailable|server_error|internal/i.test(
    `${details.code ?? ''} ${name ?? ''}`,
  );
  return new ProviderError({
    code: name?.startsWith('AI_') && name !== 'AI_APICallError' ? 'invalid_response' : 'api_error',
    provider,
    message: `${provider}: ${details.message ?? described}`,
    isRetryable: transient,
    ...(details.message === undefined ? {} : { providerMessage: details.message }),
    ...(details.code === undefined ? {} : { providerCode: details.code }),
    cause: error,
  });
}
