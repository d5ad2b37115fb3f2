import {
  checkSessionId,
  checkSessionOwner,
  type Session,
  type SessionAccess,
  type SessionStore,
} from './session';

/**
 * Sessions in memory, for one process (the agent's default). Sessions are copied in and
 * out, so changing one you read never changes what is stored.
 *
 * @example
 * ```ts
 * const agent = createAgent({ provider, tools, sessionStore: new InMemorySessionStore() });
 * await agent.run('My name is Ada.', { sessionId: 'chat-1', userId: 'ada' });
 * ```
 */
export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Session>();

  async get(sessionId: string, access?: SessionAccess): Promise<Session | undefined> {
    checkSessionId(sessionId);
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return undefined;
    checkSessionOwner(session, access);
    return structuredClone(session);
  }

  async save(session: Session): Promise<void> {
    checkSessionId(session?.session_id);
    this.#sessions.set(session.session_id, structuredClone(session));
  }

  async delete(sessionId: string, access?: SessionAccess): Promise<boolean> {
    checkSessionId(sessionId);
    const session = this.#sessions.get(sessionId);
    if (session === undefined) return false;
    checkSessionOwner(session, access);
    return this.#sessions.delete(sessionId);
  }
}
