// Type-checked examples shown in the TSDoc of `to-ui-message-stream.ts` (scripts/docs/examples.mjs).
import { createAgent } from '@mtpx/agent';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { scriptedProvider } from '@mtpx/providers/testing';
import { readUIMessageStream } from 'ai';
import type { MtpxUIMessage } from './mtpx-data-parts';
import { toUIMessageStream, toUIMessageStreamResponse } from './to-ui-message-stream';

const agent = createAgent({
  provider: scriptedProvider([
    { toolCalls: [{ name: 'calculator.add', arguments: { a: 2, b: 3 } }] },
    { text: '5' },
  ]),
  tools: [calculatorToolkit()],
});

export async function toUIMessageStreamExample() {
  //#region toUIMessageStream
  for await (const message of readUIMessageStream<MtpxUIMessage>({
    stream: toUIMessageStream(agent.stream('What is 2 + 3?')),
  })) {
    console.log(message.parts.map((part) => part.type)); // ['step-start', 'tool-calculator.add', …]
  }
  //#endregion toUIMessageStream
}

export function toUIMessageStreamResponseExample() {
  //#region toUIMessageStreamResponse
  async function POST(request: Request): Promise<Response> {
    const { messages } = (await request.json()) as { messages: MtpxUIMessage[] };
    const last = messages.at(-1)?.parts.find((part) => part.type === 'text');
    return toUIMessageStreamResponse(agent.stream(last?.text ?? '', { signal: request.signal }));
  }
  //#endregion toUIMessageStreamResponse
  return POST;
}
