import { createAnthropicProvider } from '../anthropic/anthropic-provider';
import { createOpenAIProvider } from '../openai/openai-provider';
import type { ResponseScript } from '../testing/model-server';
import { modelServerPerTest, recordedResponses } from './model-server-per-test';

/**
 * The OpenAI adapter against a model server per test: `providerFor(responses)` starts the
 * server and points an adapter (no SDK retries unless asked) at it; `sse` and `json` are
 * the recorded Chat Completions answers; `server.requests` what the SDK sent.
 */
export function openAIUnderTest() {
  const server = modelServerPerTest();
  return {
    server,
    ...recordedResponses('openai'),
    providerFor: async (responses: ResponseScript[], maxRetries = 0) => {
      const { url } = await server.start(responses);
      return createOpenAIProvider({
        model: 'gpt-4.1-mini',
        apiKey: 'sk-test',
        baseURL: `${url}/v1`,
        maxRetries,
      });
    },
  };
}

/** The Anthropic adapter against a model server per test, like {@link openAIUnderTest}. */
export function anthropicUnderTest() {
  const server = modelServerPerTest();
  return {
    server,
    ...recordedResponses('anthropic'),
    providerFor: async (responses: ResponseScript[], maxRetries = 0) => {
      const { url } = await server.start(responses);
      return createAnthropicProvider({
        model: 'claude-sonnet-4-6',
        apiKey: 'sk-ant-test',
        baseURL: url,
        maxRetries,
      });
    },
  };
}
