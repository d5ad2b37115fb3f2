import { describe, expect, it } from 'vitest';
import { modelServerPerTest, recordedResponses } from '../__fixtures__/model-server-per-test';
import { ProviderError } from '../provider-error';
import { openAICompatiblePresets, resolveOpenAICompatiblePreset } from './openai-presets';
import { createOpenAIProvider } from './openai-provider';

const server = modelServerPerTest();
const { json } = recordedResponses('openai');

describe('OpenAI-compatible presets', () => {
  it('knows every service of the brief, each with a base URL and a key variable', () => {
    expect(
      Object.entries(openAICompatiblePresets).map(
        ([name, preset]) =>
          `${name}: ${preset.baseURL} ${preset.apiKeyVariable} ${preset.baseURLVariable}`,
      ),
    ).toMatchInlineSnapshot(`
      [
        "openai: https://api.openai.com/v1 OPENAI_API_KEY OPENAI_BASE_URL",
        "groq: https://api.groq.com/openai/v1 GROQ_API_KEY GROQ_BASE_URL",
        "together: https://api.together.xyz/v1 TOGETHER_API_KEY TOGETHER_BASE_URL",
        "fireworks: https://api.fireworks.ai/inference/v1 FIREWORKS_API_KEY FIREWORKS_BASE_URL",
        "cerebras: https://api.cerebras.ai/v1 CEREBRAS_API_KEY CEREBRAS_BASE_URL",
        "deepseek: https://api.deepseek.com/v1 DEEPSEEK_API_KEY DEEPSEEK_BASE_URL",
        "gemini: https://generativelanguage.googleapis.com/v1beta/openai GEMINI_API_KEY GEMINI_BASE_URL",
        "mistral: https://api.mistral.ai/v1 MISTRAL_API_KEY MISTRAL_BASE_URL",
        "openrouter: https://openrouter.ai/api/v1 OPENROUTER_API_KEY OPENROUTER_BASE_URL",
        "sambanova: https://api.sambanova.ai/v1 SAMBANOVA_API_KEY SAMBANOVA_BASE_URL",
        "mimo: https://api.xiaomimimo.com/v1 MIMO_API_KEY MIMO_BASE_URL",
        "ollama: http://localhost:11434/v1 OLLAMA_API_KEY OLLAMA_BASE_URL",
        "lmstudio: http://localhost:1234/v1 LMSTUDIO_API_KEY LMSTUDIO_BASE_URL",
        "vllm: http://localhost:8000/v1 VLLM_API_KEY VLLM_BASE_URL",
      ]
    `);
  });

  it.each(Object.entries(openAICompatiblePresets).filter(([, preset]) => preset.apiKeyRequired))(
    '%s: a missing key is a typed error naming the variable to set',
    (name, preset) => {
      let error: unknown;
      try {
        createOpenAIProvider({
          preset: name as keyof typeof openAICompatiblePresets,
          model: 'm',
          env: {},
        });
      } catch (caught) {
        error = caught;
      }
      expect(ProviderError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'missing_api_key',
        apiKeyVariable: preset.apiKeyVariable,
      });
      const message = (error as Error).message;
      expect(message).toBe(
        `${preset.label} needs an API key: set the ${preset.apiKeyVariable} environment variable (or pass apiKey).`,
      );
      expect(message).not.toContain('\n');
    },
  );

  it('reads Xiaomi MiMo settings from MIMO_API_KEY and MIMO_BASE_URL', () => {
    expect(
      resolveOpenAICompatiblePreset({
        preset: 'mimo',
        env: { MIMO_API_KEY: 'sk-mimo', MIMO_BASE_URL: 'https://token-plan.example/v1' },
      }),
    ).toEqual({
      preset: 'mimo',
      label: 'Xiaomi MiMo',
      apiKey: 'sk-mimo',
      baseURL: 'https://token-plan.example/v1',
    });
    expect(
      resolveOpenAICompatiblePreset({ preset: 'mimo', env: { MIMO_API_KEY: 'sk-mimo' } }).baseURL,
    ).toBe('https://api.xiaomimimo.com/v1');
  });

  it('lets options win over the environment, and ignores blank variables', () => {
    const resolved = resolveOpenAICompatiblePreset({
      preset: 'groq',
      apiKey: 'gsk-option',
      env: { GROQ_API_KEY: 'gsk-env', GROQ_BASE_URL: '  ' },
    });
    expect(resolved).toMatchObject({
      apiKey: 'gsk-option',
      baseURL: 'https://api.groq.com/openai/v1',
    });
    expect(() =>
      resolveOpenAICompatiblePreset({ preset: 'groq', env: { GROQ_API_KEY: ' ' } }),
    ).toThrowError(/GROQ_API_KEY/);
  });

  it('needs no key for local servers', () => {
    for (const preset of ['ollama', 'lmstudio', 'vllm'] as const) {
      expect(resolveOpenAICompatiblePreset({ preset, env: {} }).apiKey).toBe('not-needed');
    }
  });

  it('rejects an unknown preset with the list of known ones', () => {
    expect(() =>
      createOpenAIProvider({ preset: 'nope' as 'groq', model: 'm', apiKey: 'k' }),
    ).toThrowError(expect.objectContaining({ code: 'invalid_options' }));
  });

  it('sends requests to the preset base URL (taken from its variable) with its key', async () => {
    await server.start([json('final-answer')]);
    const provider = createOpenAIProvider({
      preset: 'mimo',
      model: 'mimo-v2-flash',
      env: { MIMO_API_KEY: 'sk-mimo-test', MIMO_BASE_URL: `${server.url}/v1` },
    });
    expect(provider.preset).toBe('mimo');
    await provider.generate({ messages: [{ role: 'user', content: 'Hi' }], tools: [] });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-mimo-test');
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
  });
});
