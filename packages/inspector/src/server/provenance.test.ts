import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkEntry, type ProvenanceEntry, semanticHash } from '@mtpx/mpl';
import type { JsonValue } from '@mtpx/protocol';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InspectorServer, serveInspector } from '../index';

/** A three-link chain as an MPL proxy stores it, and a copy whose second payload was edited. */
function chain(): ProvenanceEntry[] {
  const entries: ProvenanceEntry[] = [];
  const payloads: JsonValue[] = [
    { step: 'plan' },
    { step: 'call', value: 12 },
    { step: 'result', value: 31 },
  ];
  for (const [index, payload] of payloads.entries()) {
    entries.push(
      linkEntry(entries[index - 1], {
        plan_id: 'plan_1',
        stype: 'org.example.Step.v1',
        sem_hash: semanticHash(payload),
        payload,
        qom_profile: 'qom-basic',
        qom_passed: true,
        timestamp: `2026-12-01T10:00:0${index}.000Z`,
      }),
    );
  }
  return entries;
}

let proxy: Server;
let dataDir: string;
let inspector: InspectorServer;
const seenTokens: string[] = [];

beforeAll(async () => {
  proxy = createServer((request, response) => {
    seenTokens.push(String(request.headers.authorization));
    const url = new URL(request.url ?? '/', 'http://proxy');
    const planId = url.searchParams.get('planId');
    const entries = chain();
    if (planId === 'plan_tampered')
      (entries[1] as { payload: unknown }).payload = { step: 'call', value: 13 };
    if (url.pathname !== '/provenance' || (planId !== 'plan_1' && planId !== 'plan_tampered')) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"error":"E-NOT-FOUND"}');
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ planId, chain: entries }));
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  dataDir = await mkdtemp(join(tmpdir(), 'mtpx-inspector-provenance-'));
  inspector = await serveInspector({
    dataDir,
    port: 0,
    mplProxy: { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, token: 'secret' },
  });
});
afterAll(async () => {
  await inspector.close();
  await new Promise((resolve) => proxy.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

describe('GET /api/provenance', () => {
  it('a chain from the MPL proxy, every link verified here', async () => {
    const response = await fetch(`${inspector.url}/api/provenance?planId=plan_1`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      valid: boolean;
      links: Array<{ verified: boolean; entry: { seq: number } }>;
    };
    expect(body.valid).toBe(true);
    expect(body.links.map((link) => [link.entry.seq, link.verified])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    expect(seenTokens.at(-1)).toBe('Bearer secret');
  });

  it('an edited payload breaks exactly its link', async () => {
    const response = await fetch(`${inspector.url}/api/provenance?planId=plan_tampered`);
    const body = (await response.json()) as {
      valid: boolean;
      links: Array<{ verified: boolean; problems: string[] }>;
    };
    expect(body.valid).toBe(false);
    expect(body.links.map((link) => link.verified)).toEqual([true, false, true]);
    expect(body.links[1]?.problems.join(' ')).toContain('does not hash to its sem_hash');
  });

  it('a proxy data folder, read directly (provenance.db)', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'mtpx-inspector-mpl-data-'));
    const database = new Database(join(folder, 'provenance.db'));
    // The columns the MPL proxy's SQLite store writes (packages/mpl-proxy).
    database.exec(
      'CREATE TABLE provenance_entries (id INTEGER PRIMARY KEY, plan_key TEXT NOT NULL, seq INTEGER NOT NULL, plan_id TEXT, stype TEXT NOT NULL, method TEXT, invocation_id TEXT, sem_hash TEXT NOT NULL, parent_hash TEXT, entry_hash TEXT NOT NULL, timestamp TEXT NOT NULL, qom_profile TEXT NOT NULL, qom_passed INTEGER NOT NULL, payload TEXT NOT NULL)',
    );
    const insert = database.prepare(
      'INSERT INTO provenance_entries (plan_key, plan_id, seq, stype, method, invocation_id, sem_hash, parent_hash, entry_hash, timestamp, qom_profile, qom_passed, payload) VALUES (@plan_key, @plan_id, @seq, @stype, @method, @invocation_id, @sem_hash, @parent_hash, @entry_hash, @timestamp, @qom_profile, @qom_passed, @payload)',
    );
    for (const entry of chain())
      insert.run({
        ...entry,
        plan_key: 'plan_1',
        qom_passed: entry.qom_passed ? 1 : 0,
        payload: JSON.stringify(entry.payload),
      });
    database.close();
    const fromFolder = await serveInspector({ dataDir, port: 0, mplProxy: { dataDir: folder } });
    try {
      const body = (await (
        await fetch(`${fromFolder.url}/api/provenance?planId=plan_1`)
      ).json()) as {
        valid: boolean;
        links: Array<{ verified: boolean }>;
      };
      expect(body.valid).toBe(true);
      expect(body.links.map((link) => link.verified)).toEqual([true, true, true]);
      const missing = await fetch(`${fromFolder.url}/api/provenance?planId=nope`);
      expect(missing.status).toBe(404);
    } finally {
      await fromFolder.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('an unknown plan is a 404 with the error shape', async () => {
    const response = await fetch(`${inspector.url}/api/provenance?planId=nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 'plan_not_found', message: expect.any(String) },
    });
  });
});
