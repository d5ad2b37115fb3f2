import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryProvenanceStore } from '@mtpx/mpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, type ServeProcess, startServe } from './__fixtures__/spawn-cli';
import type { RunningProxy } from './proxy-options';
import { startProxy } from './server';

// Black-box cases ported from the reference Rust MPL (see __fixtures__/reference-registry/SOURCES.md):
// its proxy tests for strict / transparent mode and unknown STypes, and its registry's
// ToolInvocation assertions (one `error`, two `warning` ones), run against the real `mpl` bin.
const referenceRegistry = join(import.meta.dirname, '__fixtures__/reference-registry');
const planId = '7d0c4a52-8f7e-4b1a-9c39-2f4f2f9a1e01';

let strict: ServeProcess;
let transparent: ServeProcess;
let builtins: RunningProxy;
let governed: ServeProcess;

async function serve(args: string[]): Promise<ServeProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mpl-reference-'));
  return startServe(['--data', dataDir, ...args]);
}

function call(proxy: { url: string }, stype: string, payload: unknown) {
  return fetch(`${proxy.url}/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mpl-stype': stype },
    body: JSON.stringify({ method: 'tools/call', payload }),
  });
}

const payment = {
  tool_name: 'make_payment',
  tool_version: 'v1',
  arguments: { amount: 25, currency: 'EUR' },
};

beforeAll(async () => {
  const policyDir = await mkdtemp(join(tmpdir(), 'mpl-policy-'));
  const policyFile = join(policyDir, 'policy.json');
  await writeFile(
    policyFile,
    JSON.stringify({
      deny: ['org.calendar.*'],
      rules: [
        { stypes: ['org.agent.ToolInvocation.v1'], required_profile: 'qom-strict-argcheck' },
        { stypes: ['org.agent.ToolInvocation.v1'], max_payload_bytes: 400 },
      ],
    }),
  );
  [strict, transparent, builtins, governed] = await Promise.all([
    serve(['--stypes', referenceRegistry]),
    serve([
      '--stypes',
      referenceRegistry,
      '--mode',
      'transparent',
      '--allowed-origins',
      'https://app.example',
    ]),
    startProxy({ port: 0, store: new InMemoryProvenanceStore() }),
    serve(['--stypes', referenceRegistry, '--policy', policyFile]),
  ]);
});

afterAll(async () => {
  await builtins?.close();
  for (const proxy of [strict, transparent, governed]) {
    if (!proxy) continue;
    proxy.child.kill('SIGTERM');
    await proxy.exited;
  }
});

describe('strict mode (the reference registry)', () => {
  it('blocks a failed error-severity assertion with 422 E-ASSERTION-FAILED naming it', async () => {
    const response = await call(strict, 'org.agent.ToolInvocation.v1', payment);
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error).toBe('E-ASSERTION-FAILED');
    expect(body.details).toEqual([
      {
        path: '/qom/assertions/dangerous_tools_require_context',
        message: 'Dangerous tools require user context for audit',
      },
    ]);
    expect(response.headers.get('x-mpl-sem-hash')).toMatch(/^sha256:/);
  });

  it('lets the same payment through with the context the assertion asks for', async () => {
    const response = await call(strict, 'org.agent.ToolInvocation.v1', {
      ...payment,
      context: { user_id: '2b1f0c8e-3a5d-4c7b-9e6f-1a2b3c4d5e6f' },
    });
    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ valid: true, qom: { passed: true } });
  });

  it('reports warning-severity failures without blocking', async () => {
    const response = await call(strict, 'org.agent.ToolInvocation.v1', {
      tool_name: 'search_docs',
      tool_version: 'v2',
      arguments: {},
      constraints: { timeout_ms: 50, max_retries: 9 },
    });
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body.qom.passed).toBe(true);
    expect(body.warnings.map((warning: { id: string }) => warning.id)).toEqual([
      'timeout_reasonable',
      'retries_limited',
    ]);
    expect(
      body.qom.failed_assertions.every(
        (assertion: { severity: string }) => assertion.severity === 'warning',
      ),
    ).toBe(true);
  });

  it('blocks a schema failure (E-SCHEMA-FIDELITY) and an unknown SType (E-UNKNOWN-STYPE)', async () => {
    const invalid = await call(strict, 'org.calendar.Event.v1', { title: 'Team Meeting' });
    expect(invalid.status).toBe(422);
    const body = await readJson(invalid);
    expect(body.error).toBe('E-SCHEMA-FIDELITY');
    expect(body.details.length).toBeGreaterThan(0);
    const unknown = await call(strict, 'org.unknown.Mystery.v1', { data: 'some data' });
    expect(unknown.status).toBe(422);
    expect((await readJson(unknown)).error).toBe('E-UNKNOWN-STYPE');
  });
});

// The built-in STypes in process: the CLI cases above already cover the bin's strict mode.
describe('strict mode (built-in STypes)', () => {
  it('blocks an internal tool name: tool_name_valid is error-severity', async () => {
    const response = await call(builtins, 'org.agent.ToolInvocation.v1', {
      invocationId: '0b9a8f62-51b8-4f0e-8c8e-7c55d1c1b001',
      planId,
      stepId: 1,
      tool: '_internal_search',
      args: {},
    });
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error).toBe('E-ASSERTION-FAILED');
    expect(body.details.map((detail: { path: string }) => detail.path)).toEqual([
      '/qom/assertions/tool_name_valid',
    ]);
  });
});

describe('transparent mode (log only, as the reference)', () => {
  it('still refuses cross-site writes unless the origin is allowed (--allowed-origins)', async () => {
    const send = (origin: string) =>
      fetch(`${transparent.url}/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mpl-stype': 'org.unknown.X.v1', origin },
        body: JSON.stringify({ method: 'm', payload: {} }),
      });
    const evil = await send('https://evil.example');
    expect(evil.status).toBe(403);
    expect((await readJson(evil)).error).toBe('E-POLICY-DENIED');
    expect((await send('https://app.example')).status).toBe(200);
  });

  it('records and forwards an unknown SType, marked unvalidated in provenance', async () => {
    const response = await call(transparent, 'org.unknown.Mystery.v1', { planId, data: 'x' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mpl-qom-result')).toBe('fail');
    const body = await readJson(response);
    expect(body).toMatchObject({
      valid: false,
      validated: false,
      stype: 'org.unknown.Mystery.v1',
      data: { planId, data: 'x' },
      provenance: { plan_id: planId, seq: 1 },
    });
    const chain = await readJson(await fetch(`${transparent.url}/provenance?planId=${planId}`));
    expect(chain.chain[0]).toMatchObject({ stype: 'org.unknown.Mystery.v1', validated: false });
    const verified = await readJson(
      await fetch(`${transparent.url}/provenance/verify?planId=${planId}`),
    );
    expect(verified).toMatchObject({ valid: true, length: 1 });
  });

  it('passes a schema failure and a failed error assertion through, with the QoM fail header', async () => {
    const invalid = await call(transparent, 'org.calendar.Event.v1', { title: 'Team Meeting' });
    expect(invalid.status).toBe(200);
    expect(invalid.headers.get('x-mpl-qom-result')).toBe('fail');
    expect((await readJson(invalid)).valid).toBe(false);
    const unsafe = await call(transparent, 'org.agent.ToolInvocation.v1', payment);
    expect(unsafe.status).toBe(200);
    const body = await readJson(unsafe);
    expect(body.qom.failed_assertions.map((assertion: { id: string }) => assertion.id)).toEqual([
      'dangerous_tools_require_context',
    ]);
  });
});

describe('a policy file (mpl serve --policy)', () => {
  it('denies by SType pattern, judges by the required profile and limits the size', async () => {
    const denied = await call(governed, 'org.calendar.Event.v1', { title: 'x' });
    expect(denied.status).toBe(403);
    expect((await readJson(denied)).error).toBe('E-POLICY-DENIED');
    // A failed warning lowers instruction compliance below what the required profile needs.
    const judged = await call(governed, 'org.agent.ToolInvocation.v1', {
      tool_name: 'search_docs',
      tool_version: 'v1',
      arguments: {},
      constraints: { timeout_ms: 50 },
    });
    expect(judged.status).toBe(422);
    expect(judged.headers.get('x-mpl-profile')).toBe('qom-strict-argcheck');
    expect((await readJson(judged)).error).toBe('E-QOM-BREACH');
    const large = await call(governed, 'org.agent.ToolInvocation.v1', {
      ...payment,
      arguments: { note: 'x'.repeat(500) },
    });
    expect(large.status).toBe(413);
    expect((await readJson(large)).error).toBe('E-POLICY-DENIED');
  });
});
