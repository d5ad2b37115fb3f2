import { MtpxError } from '@mtpx/protocol';

/** What went wrong between MTPX and a model API. */
export type ProviderErrorCode =
  /** No API key was passed and the environment variable that holds it is unset. */
  | 'missing_api_key'
  /** The options are unusable: an unknown preset, or a request the SDK refuses to send. */
  | 'invalid_options'
  /** The API answered with an error status (after the SDK's own retries). */
  | 'api_error'
  /** The API refused the key (401) or its permissions (403). */
  | 'authentication'
  /** The API does not know the model (or the path): 404. */
  | 'not_found'
  /** The API could not be reached (after the SDK's own retries). */
  | 'connection_error'
  /** The request timed out (after the SDK's own retries). */
  | 'timeout'
  /** The caller's `AbortSignal` fired. */
  | 'aborted'
  /** The response stream ended before the response was complete. */
  | 'stream_interrupted'
  /** The response stream broke the API's own rules (e.g. more arguments for a call already reported ready). */
  | 'invalid_stream'
  /** A whole (non-streamed) response had an unusable shape. */
  | 'invalid_response'
  /** A scripted provider was asked for more turns than its script holds. */
  | 'script_exhausted';

/** What a {@link ProviderError} is built from. */
export interface ProviderErrorOptions {
  code: ProviderErrorCode;
  message: string;
  /** Which provider raised it (`openai`, `groq`, `anthropic`, `scripted`). */
  provider: string;
  /** The HTTP status, when the API answered with one. */
  status?: number;
  /** Overrides the retryability derived from `code` and `status`. */
  isRetryable?: boolean;
  /** The API's own error message, unchanged. */
  providerMessage?: string;
  /** The API's own error type or code (`rate_limit_exceeded`, `overloaded_error`). */
  providerCode?: string;
  /** The API's request id (`x-request-id` / `request-id`), for support tickets. */
  requestId?: string;
  /** For `missing_api_key`: the environment variable to set. */
  apiKeyVariable?: string;
  /** The base URL the request went to, when known (`connection_error` names it). */
  baseURL?: string;
  cause?: unknown;
}

const markerName = 'mtpx.error.ProviderError';
const marker = Symbol.for(markerName);

/**
 * True for the statuses a request may succeed on when sent again: 408, 409, 429 and 5xx.
 *
 * @internal
 */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function defaultRetryable(code: ProviderErrorCode, status: number | undefined): boolean {
  if (code === 'api_error') return isRetryableStatus(status);
  return code === 'connection_error' || code === 'timeout';
}

/**
 * A failure of a model call: the API's error (with its `status` and own message), a
 * connection failure, a timeout, a cancelled request or a broken stream.
 *
 * The SDKs have already retried with backoff (honouring `retry-after`) before this is
 * thrown, so `isRetryable` describes the failure; it is not an invitation to retry again
 * at once.
 *
 * @example
 * ```ts source="./provider-error.examples.ts#ProviderError"
 * try {
 *   await provider.generate({ messages, tools });
 * } catch (error) {
 *   if (ProviderError.isInstance(error)) console.error(error.message); // "groq: 429 Rate limit reached…"
 * }
 * ```
 */
export class ProviderError extends MtpxError<ProviderErrorCode> {
  protected readonly [marker] = true;

  /** Which provider raised it. */
  readonly provider: string;
  /** The HTTP status, when there was one. */
  readonly status: number | undefined;
  /** True for 408, 409, 429, 5xx, connection failures and timeouts. */
  readonly isRetryable: boolean;
  /** The API's own error message, unchanged. */
  readonly providerMessage: string | undefined;
  /** The API's own error type or code. */
  readonly providerCode: string | undefined;
  /** The API's request id. */
  readonly requestId: string | undefined;
  /** For `missing_api_key`: the environment variable to set. */
  readonly apiKeyVariable: string | undefined;
  /** The base URL the request went to, when known. */
  readonly baseURL: string | undefined;

  constructor(options: ProviderErrorOptions) {
    super({ code: options.code, message: options.message, cause: options.cause });
    this.name = 'ProviderError';
    this.provider = options.provider;
    this.status = options.status;
    this.isRetryable = options.isRetryable ?? defaultRetryable(options.code, options.status);
    this.providerMessage = options.providerMessage;
    this.providerCode = options.providerCode;
    this.requestId = options.requestId;
    this.apiKeyVariable = options.apiKeyVariable;
    this.baseURL = options.baseURL;
  }

  static override isInstance(error: unknown): error is ProviderError {
    return MtpxError.hasMarker(error, markerName);
  }
}
