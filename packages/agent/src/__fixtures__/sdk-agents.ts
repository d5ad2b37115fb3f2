import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { createAnthropicProvider } from '@mtpx/providers/anthropic';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import type { ModelServer } from '@mtpx/providers/testing';
import { type Agent, type AgentOptions, createAgent } from '../index';

/** Agent options a test may add to the calculator agents below. */
type ExtraOptions = Pick<AgentOptions, 'eagerDispatch'>;

/** An agent with the calculator toolkit on the real OpenAI adapter, pointed at `server`. */
export function openAIAgent(server: ModelServer, options: ExtraOptions = {}): Agent {
  const provider = createOpenAIProvider({
    model: 'gpt-4.1-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
  });
  return createAgent({ provider, tools: [calculatorToolkit()], ...options });
}

/** An agent with the calculator toolkit on the real Anthropic adapter, pointed at `server`. */
export function anthropicAgent(server: ModelServer, options: ExtraOptions = {}): Agent {
  const provider = createAnthropicProvider({
    model: 'claude-sonnet-4-6',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    maxRetries: 0,
  });
  return createAgent({ provider, tools: [calculatorToolkit()], ...options });
}
