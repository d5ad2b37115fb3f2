import type { LanguageModel, UIMessage } from 'ai';

/** The AI SDK language model the route runs on (`openai('gpt-5-mini')`, …). */
export type ChatModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/** What `useChat`'s default transport posts: the chat's id and its messages. */
export interface ChatRequest {
  id: string;
  messages: UIMessage[];
}

/** What the assistant is told in both versions of the route. */
export const INSTRUCTIONS =
  'You are a helpful assistant for an operations team. Use the tools to answer; call independent tools in the same response.';

/** The text of the last user message (the agent keeps the conversation in its session). */
export function lastUserText(messages: readonly UIMessage[]): string {
  const last = messages.findLast((message) => message.role === 'user');
  return (last?.parts ?? [])
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n');
}

/** Reads a posted chat request, or says what is wrong with it. */
export function parseChatRequest(body: unknown): ChatRequest | { error: string } {
  if (typeof body !== 'object' || body === null)
    return { error: 'The body must be a JSON object.' };
  const { id, messages } = body as { id?: unknown; messages?: unknown };
  if (typeof id !== 'string' || id === '' || id.length > 200) {
    return { error: '`id` must be a non-empty string of at most 200 characters.' };
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    return { error: '`messages` must be a non-empty array of UI messages.' };
  }
  for (const message of messages) {
    const { role, parts } = (message ?? {}) as { role?: unknown; parts?: unknown };
    if (!['user', 'assistant', 'system'].includes(String(role)) || !Array.isArray(parts)) {
      return { error: 'Each message needs a `role` (user, assistant, system) and `parts`.' };
    }
  }
  const request = { id, messages: messages as UIMessage[] };
  if (lastUserText(request.messages).trim() === '') {
    return { error: 'The last user message has no text.' };
  }
  return request;
}
