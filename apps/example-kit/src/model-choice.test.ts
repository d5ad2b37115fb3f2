import { describeProvider, providerNames } from '@mtpx/providers';
import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error';
import {
  createModelProvider,
  modelChoiceFromFlags,
  PROVIDER_NAMES,
  providerHelpLines,
} from './model-choice';

describe('modelChoiceFromFlags', () => {
  it('is the offline script without --provider', () => {
    expect(modelChoiceFromFlags({}, 'the agent')).toBeUndefined();
  });

  it('reads --provider, --model and --base-url', () => {
    expect(
      modelChoiceFromFlags(
        { provider: 'groq', model: 'm', 'base-url': 'http://127.0.0.1:8080/v1' },
        'the agent',
      ),
    ).toEqual({ provider: 'groq', model: 'm', baseUrl: 'http://127.0.0.1:8080/v1' });
  });

  it('refuses an unknown provider, listing the known ones', () => {
    expect(() => modelChoiceFromFlags({ provider: 'skynet' }, 'the agent')).toThrow(
      `Unknown --provider "skynet". Use one of: ${PROVIDER_NAMES.join(', ')}.`,
    );
  });

  it('refuses --model or --base-url without --provider, naming what the script plays', () => {
    expect(() => modelChoiceFromFlags({ model: 'm' }, 'the planner')).toThrow(
      '--model and --base-url need --provider (without it the planner is the offline script).',
    );
    expect(() =>
      modelChoiceFromFlags({ provider: 'openai', 'base-url': 'nope' }, 'the agent'),
    ).toThrow('--base-url must be an http(s) URL, not "nope".');
  });

  it('offers every service @mtpx/providers knows', () => {
    expect([...PROVIDER_NAMES]).toEqual([...providerNames]);
  });

  it('lists each service with its own variables for --help', () => {
    const lines = providerHelpLines('  ').split('\n');
    expect(lines).toHaveLength(PROVIDER_NAMES.length);
    for (const name of PROVIDER_NAMES) {
      const line = lines.find((text) => text.trimStart().startsWith(`${name} `));
      const { apiKeyVariable, baseURLVariable } = describeProvider(name);
      expect(line, name).toContain(apiKeyVariable);
      expect(line, name).toContain(baseURLVariable);
    }
    expect(lines.join('\n')).not.toContain('…');
  });
});

describe('createModelProvider', () => {
  it('uses the provider’s default model and names it in the label', async () => {
    const model = await createModelProvider({ provider: 'groq' }, { GROQ_API_KEY: 'gsk-test' });
    expect(model.label).toBe('groq llama-3.3-70b-versatile');
    expect(model.provider.model).toBe('llama-3.3-70b-versatile');
  });

  it('needs --model for a local server, which serves what you loaded', async () => {
    await expect(createModelProvider({ provider: 'vllm' }, {})).rejects.toThrow(
      '--provider vllm needs --model: the name of the model your server has loaded.',
    );
    const model = await createModelProvider({ provider: 'vllm', model: 'qwen' }, {});
    expect(model.label).toBe('vllm qwen');
  });

  it('turns a missing key into one line naming the variable to set', async () => {
    const missing = createModelProvider({ provider: 'anthropic' }, { ANTHROPIC_API_KEY: '' });
    await expect(missing).rejects.toThrow(CliError);
    await expect(missing).rejects.toThrow(
      '--provider anthropic needs an API key: set the ANTHROPIC_API_KEY environment variable.',
    );
  });
});
