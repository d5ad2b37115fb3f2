import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkEntry, type ProvenanceEntry, semanticHash, verifyChain } from '@mtpx/mpl';
import { SqliteProvenanceStore } from '@mtpx/mpl-proxy';
import type { JsonValue } from '@mtpx/protocol';
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
    // Written by the MPL proxy's own store, as `mpl serve --data-dir` writes it.
    const store = SqliteProvenanceStore.open({ dataDir: folder });
    for (const { payload, ...entry } of chain())
      await store.append({ ...entry, payload: payload as JsonValue });
    await store.close();
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

  it('a transparent-mode chain read from a proxy folder verifies as it does in the proxy', async () => {
    const { folder, proxyVerdict } = await transparentFolder();
    expect(proxyVerdict.valid).toBe(true);
    const fromFolder = await serveInspector({ dataDir, port: 0, mplProxy: { dataDir: folder } });
    try {
      const body = (await (
        await fetch(`${fromFolder.url}/api/provenance?planId=plan_transparent`)
      ).json()) as ProvenanceBody;
      expect(body.valid).toBe(proxyVerdict.valid);
      expect(body.head).toBe(proxyVerdict.head);
      expect(body.links.map((link) => [link.entry.validated, link.verified])).toEqual([
        [false, true],
        [undefined, true],
      ]);
    } finally {
      await fromFolder.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});

interface ProvenanceBody {
  valid: boolean;
  head: string | null;
  links: Array<{ verified: boolean; problems: string[]; entry: ProvenanceEntry }>;
}

/**
 * A proxy data folder holding a chain whose first message was let through unchecked
 * (transparent mode: recorded with `validated: false`), written by the proxy's own store,
 * and the proxy's verdict on it.
 */
async function transparentFolder() {
  const folder = await mkdtemp(join(tmpdir(), 'mtpx-inspector-transparent-'));
  const store = SqliteProvenanceStore.open({ dataDir: folder });
  const payloads: JsonValue[] = [{ unknown: 'shape' }, { step: 'result', value: 31 }];
  for (const [index, payload] of payloads.entries())
    await store.append({
      plan_id: 'plan_transparent',
      stype: index === 0 ? 'org.example.NotInRegistry.v1' : 'org.example.Step.v1',
      sem_hash: semanticHash(payload),
      payload,
      qom_profile: 'qom-basic',
      qom_passed: true,
      ...(index === 0 ? { validated: false } : {}),
    });
  const proxyVerdict = verifyChain(await store.chain('plan_transparent', { payloads: true }));
  await store.close();
  return { folder, proxyVerdict };
}

describe('mtpx-inspector serve --mpl-data DIR', () => {
  const cli = join(import.meta.dirname, '..', 'cli.ts');

  it('is listed in --help', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    expect(out).toContain('--mpl-data DIR');
  });

  it('starts and serves a transparent-mode chain read from a proxy folder, verified', async () => {
    const { folder, proxyVerdict } = await transparentFolder();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, 'serve', '--data', dataDir, '--port', '0', '--mpl-data', folder],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        let err = '';
        child.stderr.on('data', (chunk: Buffer) => {
          err += chunk.toString();
        });
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1] as string);
        });
        child.once('exit', (code) =>
          reject(new Error(`mtpx-inspector serve exited (${code}): ${err}`)),
        );
      });
      const response = await fetch(`${url}/api/provenance?planId=plan_transparent`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as ProvenanceBody;
      expect(body.valid).toBe(true);
      expect(body.head).toBe(proxyVerdict.head);
      expect(body.links.map((link) => link.verified)).toEqual([true, true]);
    } finally {
      child.kill();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
