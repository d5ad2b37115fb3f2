import { describe, expect, it } from 'vitest';
import { modelServerPerTest, recordedResponses } from './__fixtures__/model-server-per-test';
import { createProvider, describeProvider, isProviderName, providerNames } from './create-provider';
import { openAICompatiblePresets } from './openai/openai-presets';
import type { OpenAIProvider } from './openai/openai-provider';
import { ProviderError } from './provider-error';

const server = modelServerPerTest();

const hi = { messages: [{ role: 'user' as const, content: 'Hi' }], tools: [] };

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!ProviderError.isInstance(error)) throw new Error(`expected a ProviderError, got ${error}`);
  return error;
}

describe('createProvider', () => {
  it('knows anthropic and every OpenAI-compatible preset by name', () => {
    expect(providerNames).toEqual(['anthropic', ...Object.keys(openAICompatiblePresets)]);
    expect(providerNames.every(isProviderName)).toBe(true);
    expect(isProviderName('fireworks')).toBe(true);
    expect(isProviderName('bedrock')).toBe(false);
    expect(isProviderName('toString')).toBe(false);
  });

  it('describes every service by its label and the variables it reads', () => {
    expect(describeProvider('anthropic')).toEqual({
      label: 'Anthropic',
      apiKeyVariable: 'ANTHROPIC_API_KEY',
      baseURLVariable: 'ANTHROPIC_BASE_URL',
      baseURL: 'https://api.anthropic.com',
      apiKeyRequired: true,
    });
    expect(describeProvider('lmstudio')).toEqual({
      label: 'LM Studio',
      apiKeyVariable: 'LMSTUDIO_API_KEY',
      baseURLVariable: 'LMSTUDIO_BASE_URL',
      baseURL: 'http://localhost:1234/v1',
      apiKeyRequired: false,
    });
    expect(new Set(providerNames.map((name) => describeProvider(name).apiKeyVariable)).size).toBe(
      providerNames.length,
    );
  });

  it('builds the Anthropic adapter with the key and base URL from the environment', async () => {
    await server.start([recordedResponses('anthropic').json('final-answer')]);
    const provider = await createProvider({
      provider: 'anthropic',
      model: 'claude-test',
      maxTokens: 100,
      env: { ANTHROPIC_API_KEY: 'sk-ant-env', ANTHROPIC_BASE_URL: server.url },
    });
    expect([provider.name, provider.model]).toEqual(['anthropic', 'claude-test']);
    expect(provider.strictTools).toBe(false);
    await provider.generate(hi);
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe('Bearer sk-ant-env');
    expect(request?.body).toMatchObject({ model: 'claude-test', max_tokens: 100 });
  });

  it('builds the OpenAI-compatible adapter with a preset’s key variable and an explicit base URL', async () => {
    await server.start([recordedResponses('openai').json('final-answer')]);
    const provider = await createProvider({
      provider: 'groq',
      model: 'llama-test',
      baseURL: `${server.url}/v1`,
      body: { reasoning_effort: 'low' },
      env: { GROQ_API_KEY: 'gsk-env' },
      strictTools: true,
    });
    expect([provider.name, provider.model]).toEqual(['openai', 'llama-test']);
    expect(provider.strictTools).toBe(true);
    expect((provider as OpenAIProvider).preset).toBe('groq');
    await provider.generate(hi);
    const [request] = server.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe('Bearer gsk-env');
    expect(request?.body).toMatchObject({ model: 'llama-test', reasoning_effort: 'low' });
  });

  it('speaks the Responses API for openai by default, Chat Completions with api: chat', async () => {
    await server.start([
      { type: 'json', body: { id: 'resp_1', object: 'response', status: 'completed', output: [] } },
      recordedResponses('openai').json('final-answer'),
    ]);
    const env = { OPENAI_API_KEY: 'sk-env' };
    const responses = await createProvider({
      provider: 'openai',
      model: 'gpt-5',
      baseURL: `${server.url}/v1`,
      env,
      maxTokens: 50,
    });
    expect((responses as { api?: string }).api).toBe('responses');
    await responses.generate(hi);
    const chat = await createProvider({
      provider: 'openai',
      model: 'gpt-5',
      baseURL: `${server.url}/v1`,
      env,
      api: 'chat',
    });
    await chat.generate(hi);
    expect(server.requests.map((request) => request.path)).toEqual([
      '/v1/responses',
      '/v1/chat/completions',
    ]);
    expect(server.requests[0]?.body).toMatchObject({
      model: 'gpt-5',
      max_output_tokens: 50,
      store: true,
    });
  });

  it('keeps Chat Completions for other presets unless api: responses', async () => {
    await server.start([
      { type: 'json', body: { id: 'resp_1', object: 'response', status: 'completed', output: [] } },
    ]);
    const provider = await createProvider({
      provider: 'vllm',
      model: 'openai/gpt-oss-20b',
      api: 'responses',
      baseURL: `${server.url}/v1`,
      env: {},
    });
    await provider.generate(hi);
    expect(server.requests[0]?.path).toBe('/v1/responses');
    const error = await rejection(
      createProvider({ provider: 'anthropic', model: 'm', api: 'chat', env: {} }),
    );
    expect(error.code).toBe('invalid_options');
  });

  it('needs no key for a local server', async () => {
    const provider = await createProvider({ provider: 'ollama', model: 'llama3.1', env: {} });
    expect(provider.model).toBe('llama3.1');
  });

  it.each([
    ['anthropic', 'ANTHROPIC_API_KEY'],
    ['openai', 'OPENAI_API_KEY'],
    ['mimo', 'MIMO_API_KEY'],
  ] as const)('%s without a key is missing_api_key, naming %s', async (name, variable) => {
    const error = await rejection(createProvider({ provider: name, model: 'm', env: {} }));
    expect(error.code).toBe('missing_api_key');
    expect(error.apiKeyVariable).toBe(variable);
    expect(error.message).toContain(`set the ${variable} environment variable`);
  });

  it('refuses a name it does not know, listing the ones it does', async () => {
    const error = await rejection(
      createProvider({ provider: 'bedrock' as 'openai', model: 'm', env: {} }),
    );
    expect(error.code).toBe('invalid_options');
    expect(error.message).toBe(
      `Unknown provider "bedrock". Known providers: ${providerNames.join(', ')}.`,
    );
  });
});
