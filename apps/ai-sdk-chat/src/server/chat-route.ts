// The chat route. chat-route-ai-sdk.ts is the AI SDK app's; chat-route.ts the same on MTPX.
import { createAgent, InMemorySessionStore } from '@mtpx/agent';
import { fromAiSdkTools, fromLanguageModel, toUIMessageStreamResponse } from '@mtpx/ai-sdk';
import { exampleTools } from '../tools/example-tools';
import { type ChatModel, type ChatRequest, INSTRUCTIONS, lastUserText } from './chat-request';

const { tools } = await fromAiSdkTools(exampleTools, {
  tools: { send_email: { risk_level: 'write' }, saveNote: { risk_level: 'write' } },
});
const sessionStore = new InMemorySessionStore();

export async function chat({ id, messages }: ChatRequest, model: ChatModel, signal: AbortSignal) {
  const agent = createAgent({
    provider: fromLanguageModel(model),
    tools,
    instructions: INSTRUCTIONS,
    maxRounds: 5,
    sessionStore,
  });
  return toUIMessageStreamResponse(agent.stream(lastUserText(messages), { sessionId: id, signal }));
}
