// Type-checked examples shown in the TSDoc of the session files (scripts/docs/examples.mjs).
import type { Provider } from '@mtpx/protocol';
import { createAgent } from '../run/agent';
import type { AgentOptions } from '../run/agent-options';
import { InMemorySessionStore } from './in-memory-session-store';
import { JsonFileSessionStore } from './json-file-session-store';
import { checkSessionVersion, type Session } from './session';

export async function inMemorySessionStoreExample(
  provider: Provider,
  tools: AgentOptions['tools'],
) {
  //#region InMemorySessionStore
  const agent = createAgent({ provider, tools, sessionStore: new InMemorySessionStore() });
  await agent.run('My name is Ada.', { sessionId: 'chat-1', userId: 'ada' });
  //#endregion InMemorySessionStore
}

export async function jsonFileSessionStoreExample(
  provider: Provider,
  tools: AgentOptions['tools'],
) {
  //#region JsonFileSessionStore
  const sessionStore = new JsonFileSessionStore({ directory: '.sessions' });
  const agent = createAgent({ provider, tools, sessionStore });
  await agent.run('Remember: the meeting is at 3.', { sessionId: 'chat-1', userId: 'ada' });
  //#endregion JsonFileSessionStore
}

/** A store that writes under a lock of its own, as a database-backed store would. */
export function checkSessionVersionExample(
  withLock: (key: string, work: () => Promise<void>) => Promise<void>,
) {
  abstract class LockedSessionStore {
    abstract read(sessionId: string): Promise<Session | undefined>;
    abstract write(session: Session): Promise<void>;

    //#region checkSessionVersion
    async save(session: Session) {
      await withLock(session.session_id, async () => {
        checkSessionVersion(await this.read(session.session_id), session);
        await this.write({ ...session, version: (session.version ?? 0) + 1 });
      });
    }
    //#endregion checkSessionVersion
  }
  return LockedSessionStore;
}
