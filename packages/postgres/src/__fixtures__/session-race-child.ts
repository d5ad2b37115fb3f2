// One process of the session race: an agent run on a shared session whose only tool
// waits for the parent's "go", so both processes have read the session before either saves.
import { AgentError, createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import { scriptedProvider } from '@mtpx/providers/testing';
import { PostgresSessionStore } from '../postgres-session-store';
import { stdinLines } from './child-process';

const [connectionString, schema, sessionId, userId, label] = process.argv.slice(2) as string[];
const nextLine = stdinLines();
const gate = defineTool({
  name: 'gate.wait',
  description: 'Waits for the test to say go.',
  input_schema: { type: 'object', properties: {} },
  execute: async () => {
    console.log('waiting');
    await nextLine();
    return 'go';
  },
});
const sessionStore = new PostgresSessionStore({ connectionString, schema });
const agent = createAgent({
  provider: scriptedProvider([
    { toolCalls: [{ id: `call_${label}`, name: 'gate.wait', arguments: {} }] },
    { text: `Noted by ${label}.` },
  ]),
  tools: [gate],
  sessionStore,
});
try {
  await agent.run(`Message from ${label}`, { sessionId, userId });
  console.log('saved');
} catch (error) {
  console.log(AgentError.isInstance(error) ? `error ${error.code}` : `error ${String(error)}`);
} finally {
  await sessionStore.close();
  process.exit(0);
}
