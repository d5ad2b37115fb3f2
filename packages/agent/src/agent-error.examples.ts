// Type-checked examples shown in the TSDoc of `agent-error.ts` (scripts/docs/examples.mjs).
import { AgentError } from './agent-error';
import type { Agent } from './run/agent';

export async function agentErrorExample(agent: Agent, deny: () => void) {
  //#region AgentError
  try {
    await agent.run('Hi', { sessionId: 'chat-1', userId: 'mallory' });
  } catch (error) {
    if (AgentError.isInstance(error) && error.code === 'session_access_denied') deny();
  }
  //#endregion AgentError
}
