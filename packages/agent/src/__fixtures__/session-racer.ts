/**
 * Run by session-races.test.ts in a child Node process: one writer of a JSON-file session.
 * On `load` it reads the session as `userId` (a new one when there is none), on `save`
 * it saves its copy with one more message; it prints `loaded <version>`, then `saved` or
 * `failed <code>`. On `race <count> <label>` it saves `count` times, each save a copy one
 * message (`<label>:<i>`) longer than the version it last saved or loaded, and prints
 * `saved <label>:<i> <version>` for each acknowledged save, or
 * `failed <label>:<i> <code> <version it saved from>` (then it loads again), and `done`.
 */
import { createInterface } from 'node:readline';
import { JsonFileSessionStore } from '../session/json-file-session-store';
import { newSession, type Session } from '../session/session';

const [directory, sessionId, userId] = process.argv.slice(2) as [string, string, string];
const store = new JsonFileSessionStore({ directory });
let session: Session | undefined;

const codeOf = (error: unknown) => (error as { code?: string }).code ?? String(error);
const load = async () =>
  (await store.get(sessionId, { userId })) ?? newSession(sessionId, userId);

async function race(count: number, label: string): Promise<void> {
  let current = session ?? (await load());
  for (let index = 1; index <= count; index++) {
    const from = current.version ?? 0;
    const next = {
      ...current,
      messages: [...current.messages, { role: 'user' as const, content: `${label}:${index}` }],
    };
    try {
      await store.save(next);
      current = { ...next, version: from + 1 };
      process.stdout.write(`saved ${label}:${index} ${from + 1}\n`);
    } catch (error) {
      process.stdout.write(`failed ${label}:${index} ${codeOf(error)} ${from}\n`);
      current = await load();
    }
  }
  session = current;
  process.stdout.write('done\n');
}

for await (const line of createInterface({ input: process.stdin })) {
  try {
    const [command = '', ...rest] = line.split(' ');
    if (command === 'load') {
      session = await load();
      process.stdout.write(`loaded ${session.version ?? 0}\n`);
    } else if (command === 'save' && session !== undefined) {
      session.messages.push({ role: 'user', content: `written by ${userId} (pid ${process.pid})` });
      await store.save(session);
      session.version = (session.version ?? 0) + 1;
      process.stdout.write('saved\n');
    } else if (command === 'race') {
      await race(Number(rest[0]), rest[1] ?? userId);
    }
  } catch (error) {
    process.stdout.write(`failed ${codeOf(error)}\n`);
  }
}
