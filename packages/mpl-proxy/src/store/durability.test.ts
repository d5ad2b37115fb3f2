import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProvenanceEntry } from '@mtpx/mpl';
import type { CallResponseBody } from '@mtpx/mpl/internal';
import { describe, expect, it } from 'vitest';
import { startServe } from '../__fixtures__/spawn-cli';

const plans = 20;
const clients = 200;
const callsPerClient = 10;
const killAfter = 400;

function reasoningCall(planId: string, index: number) {
  return {
    method: 'agent.reason',
    payload: {
      reasoningId: randomUUID(),
      planId,
      thought: `Thought ${index}`,
      conclusion: 'Continue',
    },
  };
}

describe('durability', () => {
  // `full` (the default) syncs the log before answering; `normal` answers once the commit
  // is in the log: both must survive kill -9.
  it.each([
    ['full', []],
    ['normal', ['--synchronous', 'normal']],
  ])(
    'synchronous=%s keeps every acknowledged entry, and every chain verifies, after kill -9 during 200 concurrent calls',
    async (_mode, options) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'mpl-durability-'));
      const first = await startServe(['--data', dataDir, ...options]);
      const planIds = Array.from({ length: plans }, () => randomUUID());
      const acknowledged: CallResponseBody[] = [];
      let failures = 0;
      let killed = false;
      // 200 clients call at once, each again as soon as it is answered, until the proxy dies:
      // the kill lands while about 200 calls are in flight.
      const client = async (index: number) => {
        const planId = planIds[index % plans] as string;
        for (let call = 0; call < callsPerClient; call++) {
          let answer: { status: number; body: CallResponseBody };
          try {
            const response = await fetch(`${first.url}/call`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                'X-MPL-SType': 'ai.agent.Reasoning.v1',
              },
              body: JSON.stringify(reasoningCall(planId, call)),
            });
            answer = { status: response.status, body: (await response.json()) as CallResponseBody };
          } catch {
            failures += 1;
            return;
          }
          expect(answer.status).toBe(200);
          acknowledged.push(answer.body);
          if (acknowledged.length >= killAfter && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: clients }, (_unused, index) => client(index)));
      expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
      expect(acknowledged.length).toBeGreaterThanOrEqual(killAfter);
      expect(acknowledged.length).toBeLessThan(clients * callsPerClient);
      expect(failures).toBeGreaterThan(0);

      const second = await startServe(['--data', dataDir, ...options]);
      try {
        const chains = new Map<string, ProvenanceEntry[]>();
        for (const planId of planIds) {
          const response = await fetch(`${second.url}/provenance?planId=${planId}&payloads=true`);
          if (response.status === 404) continue;
          chains.set(planId, ((await response.json()) as { chain: ProvenanceEntry[] }).chain);
          const verdict = await (
            await fetch(`${second.url}/provenance/verify?planId=${planId}`)
          ).json();
          expect(verdict, planId).toMatchObject({ valid: true, problems: [] });
        }
        for (const ack of acknowledged) {
          const entry = chains.get(ack.provenance.plan_id as string)?.[ack.provenance.seq - 1];
          expect(entry, `${ack.provenance.plan_id} #${ack.provenance.seq}`).toMatchObject({
            seq: ack.provenance.seq,
            sem_hash: ack.sem_hash,
            entry_hash: ack.provenance.entry_hash,
            parent_hash: ack.provenance.parent_hash,
          });
        }
        // The restarted proxy keeps appending to the recovered chains.
        const [somePlan, someChain] = [...chains.entries()][0] ?? [];
        const next = await fetch(`${second.url}/call`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'X-MPL-SType': 'ai.agent.Reasoning.v1' },
          body: JSON.stringify({
            method: 'agent.reason',
            payload: {
              reasoningId: randomUUID(),
              planId: somePlan,
              thought: 'After restart',
              conclusion: 'Go on',
            },
          }),
        });
        expect(((await next.json()) as CallResponseBody).provenance.seq).toBe(
          (someChain?.length ?? 0) + 1,
        );
      } finally {
        second.child.kill('SIGTERM');
        expect((await second.exited).code).toBe(0);
      }
    },
    // Two CLI processes and 200 clients: seconds alone, but CI runs every package's tests at
    // once on 2 cores, where one case has taken over 30 s.
    120_000,
  );
});
