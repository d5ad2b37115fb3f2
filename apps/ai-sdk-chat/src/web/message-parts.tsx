import type { MtpxCallData, MtpxEdgeData, MtpxUIMessage } from '@mtpx/ai-sdk';
import { getToolName, isToolUIPart } from 'ai';
import { ToolCard } from './tool-card';

/** One message's parts, as an AI SDK app renders them; MTPX's data parts only add badges. */
export function MessageParts({ message }: { message: MtpxUIMessage }) {
  const calls = new Map<string, MtpxCallData>();
  const edges: MtpxEdgeData[] = [];
  for (const part of message.parts) {
    if (part.type === 'data-mtpx-call') calls.set(part.data.callId, part.data);
    if (part.type === 'data-mtpx-edge') edges.push(part.data);
  }
  let step = 0;
  return (
    <>
      {message.parts.map((part, index) => {
        const key = `${message.id}-${index}`;
        if (part.type === 'step-start') {
          step += 1;
          return (
            <div key={key} className="step" data-testid="step">
              step {step}
            </div>
          );
        }
        if (part.type === 'text') {
          return (
            <p key={key} className="text" data-testid={`${message.role}-text`}>
              {part.text}
            </p>
          );
        }
        if (part.type === 'reasoning') {
          return (
            <details key={key} className="reasoning">
              <summary>Reasoning</summary>
              {part.text}
            </details>
          );
        }
        if (isToolUIPart(part)) {
          return (
            <ToolCard
              key={key}
              name={getToolName(part)}
              part={part}
              call={calls.get(part.toolCallId)}
              inputsFrom={edges.filter((edge) => edge.to === part.toolCallId)}
            />
          );
        }
        return null;
      })}
    </>
  );
}
