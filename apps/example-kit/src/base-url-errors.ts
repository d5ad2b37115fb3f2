import type { Provider, ProviderEvent, ProviderRequest, ProviderTurn } from '@mtpx/protocol';
import { ProviderError } from '@mtpx/providers';

/** The failures where the address matters: the API could not be reached, or did not answer in time. */
const ADDRESS_CODES = new Set(['connection_error', 'timeout']);

/**
 * `error` naming `baseUrl` when it is a {@link ProviderError} about reaching the API whose
 * message does not name it yet (`… Connection error. (base URL http://127.0.0.1:9)`);
 * anything else unchanged. So the URL is printed once, whether or not the provider's own
 * message names it.
 */
export function withBaseUrl(error: unknown, baseUrl: string): unknown {
  if (!ProviderError.isInstance(error) || !ADDRESS_CODES.has(error.code)) return error;
  if (error.message.includes(baseUrl)) return error;
  return new ProviderError({
    code: error.code,
    provider: error.provider,
    message: `${error.message} (base URL ${baseUrl})`,
    ...(error.status === undefined ? {} : { status: error.status }),
    isRetryable: error.isRetryable,
    ...(error.providerMessage === undefined ? {} : { providerMessage: error.providerMessage }),
    ...(error.providerCode === undefined ? {} : { providerCode: error.providerCode }),
    ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
    cause: error,
  });
}

/** `provider`, its connection failures naming the base URL it used (see {@link withBaseUrl}). */
export function namingBaseUrl(provider: Provider, baseUrl: string): Provider {
  return {
    name: provider.name,
    model: provider.model,
    generate: (request: ProviderRequest): Promise<ProviderTurn> =>
      provider.generate(request).catch((error: unknown) => {
        throw withBaseUrl(error, baseUrl);
      }),
    stream: (request: ProviderRequest): AsyncIterable<ProviderEvent> => ({
      async *[Symbol.asyncIterator]() {
        try {
          yield* provider.stream(request);
        } catch (error) {
          throw withBaseUrl(error, baseUrl);
        }
      },
    }),
  };
}
