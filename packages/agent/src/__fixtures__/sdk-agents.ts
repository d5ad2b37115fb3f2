import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { createAnthropicProvider } from '@mtpx/providers/anthropic';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import type { ModelServer } from '@mtpx/providers/testing';
import { type Agent, type AgentOptions, createAgent } from '../index';

/** Agent options a test may add to the calculator agents below (`strictTools` goes to the provider). */
type ExtraOptions = Pick<AgentOptions, 'eagerDispatch'> & { strictTools?: boolean };

/** An agent with the calculator toolkit on the real OpenAI adapter, pointed at `server`. */
export function openAIAgent(server: ModelServer, options: ExtraOptions = {}): Agent {
  const { strictTools, ...agentOptions } = options;
  const provider = createOpenAIProvider({
    model: 'gpt-4.1-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    maxRetries: 0,
    ...(strictTools === undefined ? {} : { strictTools }),
  });
  return createAgent({ provider, tools: [calculatorToolkit()], ...agentOptions });
}

/** An agent with the calculator toolkit on the real Anthropic adapter, pointed at `server`. */
export function anthropicAgent(server: ModelServer, options: ExtraOptions = {}): Agent {
  const { strictTools, ...agentOptions } = options;
  const provider = createAnthropicProvider({
    model: 'claude-sonnet-4-6',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    maxRetries: 0,
    ...(strictTools === undefined ? {} : { strictTools }),
  });
  return createAgent({ provider, tools: [calculatorToolkit()], ...agentOptions });
}
