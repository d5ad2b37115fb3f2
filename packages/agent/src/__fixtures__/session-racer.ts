/**
 * Run by session-races.test.ts in a child Node process: one writer of a JSON-file session.
 * On `load` it reads the session as `userId` (a new one when there is none), on `save`
 * it saves its copy with one more message; it prints `loaded <version>`, then `saved` or
 * `failed <code>`.
 */
import { createInterface } from 'node:readline';
import { JsonFileSessionStore } from '../session/json-file-session-store';
import { newSession, type Session } from '../session/session';

const [directory, sessionId, userId] = process.argv.slice(2) as [string, string, string];
const store = new JsonFileSessionStore({ directory });
let session: Session | undefined;

for await (const line of createInterface({ input: process.stdin })) {
  try {
    if (line === 'load') {
      session = (await store.get(sessionId, { userId })) ?? newSession(sessionId, userId);
      process.stdout.write(`loaded ${session.version ?? 0}\n`);
    } else if (line === 'save' && session !== undefined) {
      session.messages.push({ role: 'user', content: `written by ${userId} (pid ${process.pid})` });
      await store.save(session);
      session.version = (session.version ?? 0) + 1;
      process.stdout.write('saved\n');
    }
  } catch (error) {
    process.stdout.write(`failed ${(error as { code?: string }).code ?? String(error)}\n`);
  }
}
