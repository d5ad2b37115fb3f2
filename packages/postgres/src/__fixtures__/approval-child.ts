// A process of the approvals test: `run` starts the run (it stops waiting for approval),
// `resume` goes on with the decisions given as JSON, `in-process` runs with an in-process
// approver (write yes, delete no) and no journal. Prints `output <json>` or `error <code>`.
import { AgentError } from '@mtpx/agent';
import pg from 'pg';
import { PostgresRunJournal } from '../postgres-run-journal';
import { approvalAgent } from './approval-agent';

const [connectionString, schema, mode, runId, decisions] = process.argv.slice(2) as [
  string,
  string,
  'run' | 'resume' | 'in-process',
  string,
  string?,
];

const secret = 'the approvals test secret, 32 bytes';
const pool = new pg.Pool({ connectionString, max: 4 });
const journal = new PostgresRunJournal({ pool, schema });
try {
  const output =
    mode === 'in-process'
      ? await approvalAgent({ pool, schema, label: mode, approve: (name) => name === 'doc.write' }).run(
          'Tidy the documents.',
          { runId },
        )
      : mode === 'run'
        ? await approvalAgent({ pool, schema, label: mode, journal, approvalSecret: secret }).run(
            'Tidy the documents.',
            { runId },
          )
        : await approvalAgent({ pool, schema, label: mode, journal, approvalSecret: secret }).resume(
            runId,
            { approvals: JSON.parse(decisions ?? '[]') },
          );
  console.log(`output ${JSON.stringify(output)}`);
} catch (error) {
  console.log(`error ${AgentError.isInstance(error) ? error.code : String(error)}`);
}
await pool.end();
