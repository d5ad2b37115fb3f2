import { randomUUID } from 'node:crypto';
import { get } from 'node:http';
import { type ProvenanceEntry, verifyChain } from '@mtpx/mpl';
import type { CallResponseBody } from '@mtpx/mpl/internal';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type ServeProcess, startServe } from '../__fixtures__/spawn-cli';
import { isPostgresUrl } from './postgres-provenance';

const base = process.env.MTPX_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `mtpx_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
const location = `${base}?schema=${schema}`;
const proxies = 3;
const clientsPerProxy = 100;
const callsPerClient = 2;
const killAfter = 200;
/**
 * Each proxy's head and request timeouts, beyond this test's own. `node:http` starts a
 * connection's head timer when it accepts the connection; with 300 connections opened at
 * once by a client starved of CPU (a second suite beside this one), a client that connected
 * but had not yet written its request for 10 s got the default 408. Timeouts are tested
 * elsewhere; this test is about what a kill -9 keeps.
 */
const timeoutArgs = ['--headers-timeout', '300000', '--request-timeout', '300000'];

const pool = new pg.Pool({ connectionString: base, max: 2 });
beforeAll(() => {
  pool.on('error', () => {});
});
afterAll(async () => {
  await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

/**
 * GETs `url` as JSON on a connection of its own. The reads after the load phase must not
 * reuse a client connection idle since then: with this process starved of CPU (a second
 * suite beside it), the client's timers can fire after the proxy closed the connection
 * (1 s after its keep-alive hint), and the reused socket fails with `other side closed`.
 */
function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      response.on('end', () => {
        try {
          resolve(JSON.parse(text));
        } catch (error) {
          reject(error);
        }
      });
      response.on('error', reject);
    }).on('error', reject);
  });
}

function reasoningCall(planId: string, index: number) {
  return {
    method: 'agent.reason',
    payload: {
      reasoningId: randomUUID(),
      planId,
      thought: `Thought ${index}`,
      conclusion: 'Go on',
    },
  };
}

describe('mpl serve --provenance postgres://…', () => {
  it('3 proxies × 100 concurrent clients on one plan, one proxy kill -9d: every acknowledged entry is in one chain that verifies', {
    timeout: 240_000,
  }, async () => {
    const servers: ServeProcess[] = await Promise.all(
      Array.from({ length: proxies }, () => startServe(['--provenance', location, ...timeoutArgs])),
    );
    const [doomed, ...survivors] = servers as [ServeProcess, ...ServeProcess[]];
    const planId = randomUUID();
    const acknowledged: CallResponseBody[] = [];
    let failures = 0;
    let killed = false;
    const client = async (server: ServeProcess) => {
      for (let call = 0; call < callsPerClient; call++) {
        let response: Response;
        try {
          response = await fetch(`${server.url}/call`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'X-MPL-SType': 'ai.agent.Reasoning.v1' },
            body: JSON.stringify(reasoningCall(planId, call)),
          });
        } catch {
          failures += 1;
          return;
        }
        expect(response.status).toBe(200);
        acknowledged.push((await response.json()) as CallResponseBody);
        if (acknowledged.length >= killAfter && !killed) {
          killed = true;
          doomed.child.kill('SIGKILL');
        }
      }
    };
    try {
      await Promise.all(
        servers.flatMap((server) => Array.from({ length: clientsPerProxy }, () => client(server))),
      );
      expect(await doomed.exited).toMatchObject({ signal: 'SIGKILL' });
      expect(failures).toBeGreaterThan(0);
      expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);

      const reader = survivors[0] as ServeProcess;
      const { chain } = (await getJson(
        `${reader.url}/provenance?planId=${planId}&payloads=true`,
      )) as { chain: ProvenanceEntry[] };
      expect(verifyChain(chain)).toMatchObject({ valid: true, problems: [] });
      expect(await getJson(`${reader.url}/provenance/verify?planId=${planId}`)).toMatchObject({
        valid: true,
      });
      // One chain: every seq once, and every acknowledged entry at its place, unchanged.
      expect(new Set(acknowledged.map((ack) => ack.provenance.seq)).size).toBe(acknowledged.length);
      expect(chain.length).toBeGreaterThanOrEqual(acknowledged.length);
      for (const ack of acknowledged) {
        expect(chain[ack.provenance.seq - 1], `seq ${ack.provenance.seq}`).toMatchObject({
          plan_id: planId,
          seq: ack.provenance.seq,
          sem_hash: ack.sem_hash,
          entry_hash: ack.provenance.entry_hash,
          parent_hash: ack.provenance.parent_hash,
        });
      }
      const capabilities = (await getJson(`${reader.url}/capabilities`)) as {
        capabilities: { durable_provenance: boolean };
      };
      expect(capabilities.capabilities.durable_provenance).toBe(true);
    } finally {
      for (const server of survivors) server.child.kill('SIGTERM');
      for (const server of survivors) expect((await server.exited).code).toBe(0);
    }

    const printed = await runCli(['provenance', planId, '--verify', '--provenance', location]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('verified:');
  });

  it('refuses a --provenance that is not a postgres:// URL', async () => {
    expect(isPostgresUrl('postgresql://db/mpl')).toBe(true);
    const refused = await runCli(['serve', '--provenance', '/var/lib/mpl']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--provenance takes a postgres:// URL');
  });
});
