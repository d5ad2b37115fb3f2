import type { RoundFinishedEvent, RunStartedEvent } from '@mtpx/agent';
import type { ToolProgress } from '@mtpx/executor';
import type { Attributes } from '@opentelemetry/api';
import { ATTRIBUTES as A, contentText } from './attributes';

/** The `invoke_agent` span's attributes, from the run's start. */
export function runSpanAttributes(started: RunStartedEvent, captureContent: boolean): Attributes {
  return {
    [A.operationName]: 'invoke_agent',
    [A.providerName]: started.provider,
    [A.requestModel]: started.model,
    [A.runId]: started.runId,
    [A.streaming]: started.streaming,
    [A.eagerDispatch]: started.eagerDispatch,
    ...(started.agentName === undefined ? {} : { [A.agentName]: started.agentName }),
    ...(started.sessionId === undefined ? {} : { [A.conversationId]: started.sessionId }),
    ...(captureContent
      ? {
          [A.inputMessages]: contentText([
            { role: 'user', parts: [{ type: 'text', content: started.input }] },
          ]),
        }
      : {}),
  };
}

/** A progress report (an MCP input round among them) as a span event's attributes. */
export function progressAttributes(progress: ToolProgress): Attributes {
  return {
    ...(progress.message === undefined ? {} : { 'mtpx.progress.message': progress.message }),
    ...(progress.completed === undefined ? {} : { 'mtpx.progress.completed': progress.completed }),
    ...(progress.total === undefined ? {} : { 'mtpx.progress.total': progress.total }),
  };
}

/** The model's turn as a GenAI output message. */
export function outputMessage(event: RoundFinishedEvent): unknown {
  const parts: unknown[] = [];
  if (event.message.content) parts.push({ type: 'text', content: event.message.content });
  for (const call of event.message.tool_calls ?? [])
    parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
  return { role: 'assistant', parts, finish_reason: event.finishReason };
}
