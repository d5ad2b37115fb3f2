import net, { type AddressInfo } from 'node:net';
import type { AgentEvent, JournaledRun } from '@mtpx/agent';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseAgent, leaseTables } from './__fixtures__/lease-agent';
import {
  createTestSchema,
  type TestSchema,
  testConnectionString,
} from './__fixtures__/test-database';
import { migratePostgres, PostgresRunJournal } from './index';

let database: TestSchema;

beforeAll(async () => {
  database = await createTestSchema();
  await migratePostgres({ pool: database.pool, schema: database.schema });
  for (const statement of leaseTables(database.schema)) await database.pool.query(statement);
});
afterAll(async () => {
  await database.drop();
});

/**
 * A TCP relay to the test database that can go away and come back on the same port: while
 * it is stopped, its connections are cut and new ones are refused (`ECONNREFUSED`).
 */
function relay() {
  const target = new URL(testConnectionString);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        sockets.add(client);
        sockets.add(upstream);
        for (const socket of [client, upstream]) {
          socket.on('error', drop);
          socket.on('close', drop);
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as AddressInfo).port;
        server = listening;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (server === undefined) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  return {
    listen,
    stop,
    url: () => {
      const url = new URL(testConnectionString);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
  };
}

describe('journal writes retry a database that is briefly unreachable', () => {
  it('connections cut and refused mid-run: the journal retries until the database is back, the run completes, the journal matches', {
    timeout: 120_000,
  }, async () => {
    const gateway = relay();
    await gateway.listen();
    const journalPool = new pg.Pool({ connectionString: gateway.url(), max: 4 });
    journalPool.on('error', () => {});
    const retried: Array<{ code?: unknown; message: string }> = [];
    let refusedOnce: () => void = () => {};
    const refused = new Promise<void>((resolve) => {
      refusedOnce = resolve;
    });
    const journal = new PostgresRunJournal({
      pool: journalPool,
      schema: database.schema,
      retry: {
        onRetry: ({ error }) => {
          const failure = error as { code?: unknown; message: string };
          retried.push(failure);
          if (failure.code === 'ECONNREFUSED') refusedOnce();
        },
      },
    });
    const agent = leaseAgent({
      pool: database.pool,
      schema: database.schema,
      label: 'relayed',
      journal,
      ttlMs: 20_000,
      slices: 2,
    });
    try {
      let call2Started: () => void = () => {};
      const call2 = new Promise<void>((resolve) => {
        call2Started = resolve;
      });
      const onEvent = (event: AgentEvent) => {
        if (event.type === 'call-started' && event.callId === 'call_2') call2Started();
      };
      const run = agent.run('Step.', { runId: 'run_relayed', onEvent });
      run.catch(() => {});
      await call2;
      // The database goes away under the run (call_2's result is written while it is gone)…
      await gateway.stop();
      await refused;
      // …and comes back while the journal is still retrying.
      await gateway.listen();
      const output = await run;
      expect(output.final_text).toBe('Steps: 2, 4, 8, 16.');
      expect(retried.some((error) => error.code === 'ECONNREFUSED')).toBe(true);

      const check = new PostgresRunJournal({ pool: database.pool, schema: database.schema });
      const stored = (await check.get('run_relayed')) as JournaledRun;
      expect(stored).toMatchObject({ status: 'finished', final_text: output.final_text });
      expect(stored.tool_results).toEqual(output.tool_results);
      expect((await check.calls('run_relayed')).map((call) => call.call_id).sort()).toEqual([
        'call_1',
        'call_2',
        'call_3',
        'call_4',
      ]);
    } finally {
      await journalPool.end().catch(() => {});
      await gateway.stop();
    }
  });
});
