import type { Provider } from '@mtpx/protocol';
import type { AgentEvent } from '../events/agent-events';
import { createAgent } from '../run/agent';
import { runViewOf } from './reduce-run-view';
import { unknownEvent } from './unknown-event';

// Type-checked examples of the run view's TSDoc (`node scripts/docs/examples.mjs`).

export async function runViewOfExample(provider: Provider): Promise<void> {
  const agent = createAgent({ provider, tools: [] });
  //#region runViewOf
  const events: AgentEvent[] = [];
  await agent.run('What is 2 + 3?', { onEvent: (event) => events.push(event) });
  const view = runViewOf(events);
  for (const round of view.rounds)
    for (const call of round.calls) console.log(round.round, call.id, call.status, call.references);
  //#endregion runViewOf
}

export function unknownEventExample(): (event: AgentEvent) => string {
  //#region unknownEvent
  function describe(event: AgentEvent): string {
    switch (event.type) {
      case 'run-started':
        return `run ${event.runId}: ${event.input}`;
      case 'call-finished':
        return `${event.callId} ${event.success ? 'done' : 'failed'}`;
      case 'run-finished':
      case 'run-cancelled':
      case 'run-failed':
        return 'over';
      // Skipped on purpose, by name: a type added to AgentEvent makes `default` fail to compile.
      case 'round-started':
      case 'text-delta':
      case 'reasoning-delta':
      case 'server-tool-used':
      case 'tool-call-delta':
      case 'tool-call-ready':
      case 'call-held':
      case 'call-released':
      case 'call-throttled':
      case 'plan-started':
      case 'call-started':
      case 'call-progress':
      case 'call-retried':
      case 'approval-requested':
      case 'approval-resolved':
      case 'call-skipped':
      case 'cache-failed':
      case 'plan-finished':
      case 'round-finished':
        return '';
      default:
        // A later version's event, read back from a record.
        return `other: ${unknownEvent(event).type}`;
    }
  }
  //#endregion unknownEvent
  return describe;
}
