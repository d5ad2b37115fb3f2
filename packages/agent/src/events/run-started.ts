import type { RunRequest, RunSettings } from '../run/run-settings';
import type { RunStartedEvent } from './agent-events';

/** The `run-started` event of a run (or of the resumed part of one). */
export function runStartedEvent(
  settings: RunSettings,
  request: RunRequest,
  at: number,
): RunStartedEvent {
  const { provider, agentName, streaming, eagerDispatch } = settings;
  const { runId, input, sessionId, userId } = request;
  return {
    type: 'run-started',
    runId,
    at,
    input,
    provider: provider.name,
    model: provider.model,
    ...(agentName === undefined ? {} : { agentName }),
    streaming,
    eagerDispatch: streaming && eagerDispatch !== false,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(userId === undefined ? {} : { userId }),
    ...(request.resumed === undefined ? {} : { resumed: true }),
  };
}
