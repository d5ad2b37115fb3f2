// The chat route. chat-route-ai-sdk.ts is the AI SDK app's; chat-route.ts the same on MTPX.
import { convertToModelMessages, stepCountIs, streamText } from 'ai';
import { exampleTools } from '../tools/example-tools';
import { type ChatModel, type ChatRequest, INSTRUCTIONS } from './chat-request';

export async function chat({ messages }: ChatRequest, model: ChatModel, signal: AbortSignal) {
  const result = streamText({
    model,
    tools: exampleTools,
    system: INSTRUCTIONS,
    stopWhen: stepCountIs(5),
    messages: await convertToModelMessages(messages),
    abortSignal: signal,
  });
  return result.toUIMessageStreamResponse();
}
