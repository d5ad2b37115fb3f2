// An orchestrating process of the resume test: runs (or resumes) the booking agent's run
// and prints its output; says each time a call's result is committed to the journal.
import type { JournaledCall, JournalWriteOptions } from '@mtpx/agent';
import pg from 'pg';
import { PostgresRunJournal } from '../postgres-run-journal';
import { PostgresSessionStore } from '../postgres-session-store';
import { bookingAgent } from './booking-agent';

const [connectionString, schema, mode, runId, hang] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string?,
];

class AnnouncingJournal extends PostgresRunJournal {
  override async recordCall(
    id: string,
    call: JournaledCall,
    options?: JournalWriteOptions,
  ): Promise<void> {
    await super.recordCall(id, call, options);
    console.log(`journaled ${call.call_id}`);
  }
}

const pool = new pg.Pool({ connectionString, max: 4 });
const journal = new AnnouncingJournal({ pool, schema });
const sessionStore = new PostgresSessionStore({ pool, schema });
const agent = bookingAgent({ pool, schema, label: mode, hang: hang === 'hang', journal, sessionStore });
const output =
  mode === 'resume'
    ? await agent.resume(runId, { waitForLeaseMs: 30_000 })
    : await agent.run('Book it.', { runId, sessionId: `chat-${runId}`, userId: 'ada' });
console.log(`final ${JSON.stringify(output)}`);
await pool.end();
