import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type ProvenanceEntry, verifyChain } from '@mtpx/mpl';
import { describe, expect, it } from 'vitest';
import { SqliteProvenanceStore } from './sqlite-provenance-store';

/** The built package (the vitest global setup builds it). */
const distIndex = pathToFileURL(join(import.meta.dirname, '../../dist/index.js')).href;

const appendsPerProcess = 300;

// One writer process: opens the store, says `ready`, waits for `go` on stdin, then appends
// to ONE plan in bursts of 1–8 concurrent appends, says `half` half-way and waits for a
// second `go` (so both processes' appends surely interleave in the chain, however the
// machine schedules them), and prints every acknowledged entry as a JSON line.
const writerSource = `
import { semanticHash } from '@mtpx/mpl';
const { SqliteProvenanceStore } = await import(process.env.MPL_DIST);
const [dataDir, synchronous, planId, name, count] = process.argv.slice(1);
const store = SqliteProvenanceStore.open({ dataDir, synchronous });
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
let sent = 0;
const acknowledged = [];
const half = Math.floor(Number(count) / 2);
while (sent < Number(count)) {
  if (sent === half) {
    process.stdout.write('half\\n');
    await new Promise((resolve) => process.stdin.once('data', resolve));
  }
  const burst = Math.min(1 + (sent % 8), Number(count) - sent, sent < half ? half - sent : Infinity);
  const appends = [];
  for (let i = 0; i < burst; i++, sent++) {
    const payload = { reasoningId: name + '-' + sent, planId, thought: name + ' ' + sent, conclusion: 'go' };
    appends.push(store.append({
      plan_id: planId, invocation_id: null, stype: 'ai.agent.Reasoning.v1', method: 'agent.reason',
      sem_hash: semanticHash(payload), payload, qom_profile: 'qom-basic', qom_passed: true,
    }));
  }
  for (const entry of await Promise.all(appends))
    acknowledged.push({ seq: entry.seq, sem_hash: entry.sem_hash, entry_hash: entry.entry_hash });
}
await store.close();
process.stdout.write(JSON.stringify(acknowledged) + '\\n');
`;

interface Acknowledged {
  seq: number;
  sem_hash: string;
  entry_hash: string;
}

function startWriter(args: string[]) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', writerSource, ...args], {
    // Run from this package so the writer resolves @mtpx/mpl as the store does.
    cwd: join(import.meta.dirname, '../..'),
    env: { ...process.env, MPL_DIST: distIndex },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
  });
  const said = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.split('\n').includes(line)) resolve();
      };
      child.stdout.on('data', check);
      child.once('exit', () => reject(new Error(`writer exited before "${line}": ${errors}`)));
    });
  const ready = said('ready');
  const halfWay = said('half');
  const done = once(child, 'exit').then(([code]) => {
    if (code !== 0) throw new Error(`writer exited ${code}: ${errors}`);
    return JSON.parse(output.slice('ready\nhalf\n'.length)) as Acknowledged[];
  });
  return { child, ready, halfWay, done };
}

describe('SqliteProvenanceStore in several processes', () => {
  it.each(['normal', 'full'])(
    'synchronous=%s: two processes appending to one plan at once keep one gapless, verifying chain with every acknowledged entry once',
    async (synchronous) => {
      const dataDir = await mkdtemp(join(tmpdir(), 'mpl-processes-'));
      // The database exists before the writers race to open it.
      await SqliteProvenanceStore.open({ dataDir }).close();
      const planId = randomUUID();
      const writers = ['alpha', 'beta'].map((name) =>
        startWriter([dataDir, synchronous, planId, name, String(appendsPerProcess)]),
      );
      await Promise.all(writers.map((writer) => writer.ready));
      for (const writer of writers) writer.child.stdin.write('go\n');
      // Both first halves are acknowledged before either second half starts.
      await Promise.all(writers.map((writer) => writer.halfWay));
      for (const writer of writers) writer.child.stdin.end('go\n');
      const acknowledged = (await Promise.all(writers.map((writer) => writer.done))).flat();
      expect(acknowledged).toHaveLength(2 * appendsPerProcess);

      const store = SqliteProvenanceStore.open({ dataDir, readOnly: true });
      try {
        const chain: ProvenanceEntry[] = await store.chain(planId, { payloads: true });
        expect(chain.map((entry) => entry.seq)).toEqual(
          Array.from({ length: 2 * appendsPerProcess }, (_unused, index) => index + 1),
        );
        expect(verifyChain(chain)).toMatchObject({ valid: true, problems: [] });
        // Every acknowledged entry is in the chain, where its answer said, exactly once.
        expect(new Set(acknowledged.map((entry) => entry.seq)).size).toBe(acknowledged.length);
        for (const entry of acknowledged)
          expect(chain[entry.seq - 1], `seq ${entry.seq}`).toMatchObject(entry);
        // Both processes' appends are interleaved in the chain, not one after the other (the
        // half-way barrier makes sure of at least two switches between writers).
        const writersInOrder = chain.map(
          (entry) => String((entry.payload as { reasoningId: string }).reasoningId).split('-')[0],
        );
        const switches = writersInOrder.filter(
          (writer, index) => index > 0 && writer !== writersInOrder[index - 1],
        ).length;
        expect(switches).toBeGreaterThan(1);
      } finally {
        await store.close();
      }
    },
    120_000,
  );
});
