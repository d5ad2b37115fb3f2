import type { Provider, ProviderRequest, ProviderTurn, Usage } from '@mtpx/protocol';
import { serverToolParts } from '@mtpx/protocol/internal';
import { AgentError } from '../agent-error';
import type { AgentEvent, ToolCallDeltaEvent } from '../events/agent-events';
import type { RoundCalls } from './round-calls';

/** What a streamed model turn had produced when it broke off. */
export interface PartialTurn {
  text: string;
}

/** What a streamed turn needs besides the request. */
export interface ModelTurnStreamOptions {
  calls: RoundCalls;
  partial: PartialTurn;
  runId: string;
  round: number;
  emit: ((event: AgentEvent) => void) | undefined;
  now: () => number;
  /** Set once the stream ends: whether it reported its server tool blocks itself. */
  serverToolsReported?: boolean;
}

/**
 * One streamed model call: text deltas and call fragments are reported as they come,
 * each call goes to `calls` the moment the provider reports it ready (so it can start
 * while the model is still writing the next one), and the assembled turn is returned at
 * `finish`. Throws what the provider's stream throws; a stream that ends without
 * `finish` breaks the `Provider` contract (`invalid_provider_response`).
 */
export async function streamModelTurn(
  provider: Provider,
  request: ProviderRequest,
  options: ModelTurnStreamOptions,
): Promise<ProviderTurn> {
  const { calls, partial, runId, round, emit, now } = options;
  let turn: ProviderTurn | undefined;
  let usage: Usage | undefined;
  let serverToolsReported = false;
  for await (const event of provider.stream(request)) {
    switch (event.type) {
      case 'text-delta':
        partial.text += event.delta;
        emit?.({ type: 'text-delta', runId, at: now(), round, delta: event.delta });
        break;
      case 'reasoning-delta':
        emit?.({ type: 'reasoning-delta', runId, at: now(), round, text: event.delta });
        break;
      case 'server-tool-used':
        serverToolsReported = true;
        emit?.({
          type: 'server-tool-used',
          runId,
          at: now(),
          round,
          blockType: event.blockType,
          ...(event.id === undefined ? {} : { id: event.id }),
          ...(event.name === undefined ? {} : { name: event.name }),
        });
        break;
      case 'tool-call-delta': {
        calls.begin(event.index, event.callId);
        if (emit !== undefined) {
          const delta: ToolCallDeltaEvent = {
            type: 'tool-call-delta',
            runId,
            at: now(),
            round,
            index: event.index,
            argumentsDelta: event.argumentsDelta,
          };
          if (event.callId !== undefined) delta.callId = event.callId;
          if (event.toolName !== undefined) delta.toolName = event.toolName;
          emit(delta);
        }
        break;
      }
      case 'tool-call-ready':
        calls.ready(event.index, event.toolCall);
        break;
      case 'usage':
        usage = event.usage;
        break;
      case 'finish':
        turn = event.turn;
        break;
    }
  }
  if (turn === undefined) {
    throw new AgentError({
      code: 'invalid_provider_response',
      message: `The ${provider.name} provider's stream ended without a "finish" event.`,
    });
  }
  options.serverToolsReported = serverToolsReported;
  return turn.usage === undefined && usage !== undefined ? { ...turn, usage } : turn;
}

/** A whole (non-streamed) turn's server tool blocks as `server-tool-used` events; a stream reports its own. */
export function reportServerTools(
  turn: ProviderTurn,
  options: Pick<ModelTurnStreamOptions, 'runId' | 'round' | 'emit' | 'now'>,
): void {
  const { runId, round, emit, now } = options;
  if (emit === undefined) return;
  for (const part of serverToolParts(turn.message.provider_parts)) {
    const { id, name } = part.server_tool ?? {};
    emit({
      type: 'server-tool-used',
      runId,
      at: now(),
      round,
      blockType: part.type,
      ...(id === undefined ? {} : { id }),
      ...(name === undefined ? {} : { name }),
    });
  }
}
