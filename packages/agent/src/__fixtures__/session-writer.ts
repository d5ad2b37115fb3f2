/**
 * Run by sessions.test.ts in a child Node process: saves one session again and again,
 * each version one message longer (with a large message, so a write takes a while), and
 * prints `saved <n>` once a save has resolved. The test kills it with SIGKILL mid-way.
 */
import { JsonFileSessionStore } from '../session/json-file-session-store';
import { newSession } from '../session/session';

const directory = process.argv[2] as string;
const store = new JsonFileSessionStore({ directory });
const session = newSession('crash-test', 'ada');
const padding = 'x'.repeat(64 * 1024);

for (let version = 1; ; version++) {
  session.messages.push({ role: 'user', content: `${version} ${padding}` });
  session.updated_at = new Date().toISOString();
  await store.save(session);
  session.version = version; // compare-and-swap: the stored copy is one version further
  process.stdout.write(`saved ${version}\n`);
}
