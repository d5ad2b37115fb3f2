// An orchestrating process of the lease tests: runs (or resumes, waiting for the lease)
// the lease agent's run, and prints how it ended: `final <output>` or `error <code> <holder>`.
import { AgentError, RunLeaseError } from '@mtpx/agent';
import pg from 'pg';
import { PostgresRunJournal } from '../postgres-run-journal';
import { bodiesSettled, leaseAgent } from './lease-agent';

const [connectionString, schema, mode, runId, ttlMs] = process.argv.slice(2) as [
  string,
  string,
  'run' | 'resume',
  string,
  string,
];

const pool = new pg.Pool({ connectionString, max: 4 });
const journal = new PostgresRunJournal({ pool, schema });
const agent = leaseAgent({ pool, schema, label: mode, journal, ttlMs: Number(ttlMs) });
try {
  const output =
    mode === 'resume'
      ? await agent.resume(runId, { waitForLeaseMs: 60_000 })
      : await agent.run('Step.', { runId });
  console.log(`final ${JSON.stringify(output)}`);
} catch (error) {
  const holder = RunLeaseError.isLeaseError(error) ? (error.holder ?? '') : '';
  console.log(
    AgentError.isInstance(error) ? `error ${error.code} ${holder}` : `error ${String(error)}`,
  );
}
await bodiesSettled();
await pool.end();
