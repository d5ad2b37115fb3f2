import { mkdtemp } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryProvenanceStore, semanticHash } from '@mtpx/mpl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson } from './__fixtures__/spawn-cli';
import { planId, reasoning, taskPlan, toolInvocation } from './__fixtures__/tutorial';
import type { ProxyOptions, RunningProxy } from './proxy-options';
import { startProxy } from './server';

const started: RunningProxy[] = [];
async function proxyWith(options: ProxyOptions = {}): Promise<RunningProxy> {
  const proxy = await startProxy({ port: 0, store: new InMemoryProvenanceStore(), ...options });
  started.push(proxy);
  return proxy;
}
afterAll(async () => {
  await Promise.all(started.map((proxy) => proxy.close()));
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const plan = (extra: Record<string, string> = {}) => ({
  'X-MPL-SType': 'org.agent.TaskPlan.v1',
  ...extra,
});

let strict: RunningProxy;
beforeAll(async () => {
  strict = await proxyWith();
});

describe('POST /call', () => {
  it('answers valid, sem_hash, qom, provenance and data, with the X-MPL headers', async () => {
    const response = await post(
      `${strict.url}/call`,
      { method: 'agent.plan', payload: taskPlan },
      plan(),
    );
    expect(response.status).toBe(200);
    const body = await readJson(response);
    expect(body).toMatchObject({
      valid: true,
      stype: 'org.agent.TaskPlan.v1',
      sem_hash: semanticHash(taskPlan),
      qom: {
        profile: 'qom-basic',
        passed: true,
        metrics: { schema_fidelity: 1, instruction_compliance: 1 },
      },
      provenance: { plan_id: planId, seq: 1, parent_hash: null },
      data: taskPlan,
      errors: [],
    });
    expect(response.headers.get('x-mpl-sem-hash')).toBe(body.sem_hash);
    expect(response.headers.get('x-mpl-qom-result')).toBe('pass');
  });

  it('blocks an invalid payload in strict mode with 422 and every failing path', async () => {
    const response = await post(
      `${strict.url}/call`,
      { method: 'agent.plan', payload: { ...taskPlan, planId: 'nope', steps: [{ stepId: 0 }] } },
      plan(),
    );
    expect(response.status).toBe(422);
    expect(response.headers.get('x-mpl-qom-result')).toBe('fail');
    expect(await readJson(response)).toEqual({
      error: 'E-SCHEMA-FIDELITY',
      message: expect.stringContaining('does not conform to org.agent.TaskPlan.v1'),
      details: [
        {
          path: '/planId',
          message: 'must be a valid uuid',
          layer: 'payload',
          stype: 'org.agent.TaskPlan.v1',
        },
        {
          path: '/steps/0/action',
          message: 'is required',
          layer: 'payload',
          stype: 'org.agent.TaskPlan.v1',
        },
        {
          path: '/steps/0/tool',
          message: 'is required',
          layer: 'payload',
          stype: 'org.agent.TaskPlan.v1',
        },
        {
          path: '/steps/0/stepId',
          message: 'must be >= 1',
          layer: 'payload',
          stype: 'org.agent.TaskPlan.v1',
        },
      ],
    });
  });

  it('reports a double-validation failure as E-TOOL-ARG-COERCION at the args path', async () => {
    const payload = { ...toolInvocation, args: { context: { maxDocuments: 0 } } };
    const response = await post(
      `${strict.url}/call`,
      { method: 'agent.invoke_tool', payload },
      {
        'X-MPL-SType': 'org.agent.ToolInvocation.v1',
      },
    );
    expect(response.status).toBe(422);
    const body = await readJson(response);
    expect(body.error).toBe('E-TOOL-ARG-COERCION');
    expect(body.details).toEqual([
      { path: '/args/query', message: 'is required', layer: 'args', stype: 'eval.rag.RAGQuery.v1' },
      {
        path: '/args/context/maxDocuments',
        message: 'must be >= 1',
        layer: 'args',
        stype: 'eval.rag.RAGQuery.v1',
      },
    ]);
  });

  it('blocks a QoM breach with E-QOM-BREACH naming the metric and the assertion', async () => {
    // A blank goal fails a warning-severity assertion: IC 2/3, below the profile's 0.97.
    const response = await post(
      `${strict.url}/call`,
      {
        method: 'agent.plan',
        payload: { ...taskPlan, planId: '11111111-2222-4333-8444-555555555555', goal: '   ' },
      },
      plan({ 'X-MPL-Profile': 'qom-strict-argcheck' }),
    );
    expect(response.status).toBe(422);
    expect(await readJson(response)).toMatchObject({
      error: 'E-QOM-BREACH',
      details: [
        { path: '/qom/metrics/instruction_compliance' },
        {
          path: '/qom/assertions/goal_not_blank',
          message: expect.any(String),
        },
      ],
    });
  });

  it.each([
    ['a body that is not JSON', '{"method":', plan(), 400, 'E-INVALID-REQUEST'],
    ['a body that is not an object', '[1]', plan(), 400, 'E-INVALID-REQUEST'],
    ['a body without payload', { method: 'agent.plan' }, plan(), 400, 'E-INVALID-REQUEST'],
    ['a body without method', { payload: {} }, plan(), 400, 'E-INVALID-REQUEST'],
    ['no SType', { method: 'm', payload: {} }, {}, 400, 'E-INVALID-REQUEST'],
    [
      'a malformed SType id',
      { method: 'm', payload: {} },
      { 'X-MPL-SType': 'TaskPlan' },
      400,
      'E-UNKNOWN-STYPE',
    ],
    [
      'an unknown SType',
      { method: 'm', payload: {} },
      { 'X-MPL-SType': 'org.report.Summary.v1' },
      422,
      'E-UNKNOWN-STYPE',
    ],
    [
      'an unknown profile',
      { method: 'm', payload: taskPlan },
      plan({ 'X-MPL-Profile': 'qom-x' }),
      422,
      'E-NEGOTIATION-INCOMPATIBLE',
    ],
    [
      'scores out of range',
      { method: 'm', payload: taskPlan, scores: { groundedness: 2 } },
      plan(),
      400,
      'E-INVALID-REQUEST',
    ],
    [
      'a payload nested too deep',
      `{"method":"m","payload":${'['.repeat(600)}${']'.repeat(600)}}`,
      plan(),
      400,
      'E-INVALID-REQUEST',
    ],
  ])('answers %s with %i %s in the reference shape', async (_name, body, headers, status, code) => {
    const response = await post(`${strict.url}/call`, body, headers as Record<string, string>);
    expect(response.status).toBe(status);
    const answer = await readJson(response);
    expect(answer).toMatchObject({
      error: code,
      message: expect.any(String),
      details: expect.any(Array),
    });
  });

  it('accepts an MPL envelope body and checks its declared sem_hash', async () => {
    const envelope = {
      id: 'e1',
      stype: 'ai.agent.Reasoning.v1',
      payload: reasoning,
      sem_hash: semanticHash(reasoning),
    };
    const accepted = await post(`${strict.url}/call`, envelope);
    expect(accepted.status).toBe(200);
    expect((await readJson(accepted)).provenance.plan_id).toBe(planId);
    const tampered = await post(`${strict.url}/call`, {
      ...envelope,
      payload: { ...reasoning, conclusion: 'changed' },
    });
    expect(tampered.status).toBe(422);
    expect((await readJson(tampered)).error).toBe('E-SEMANTIC-HASH-MISMATCH');
    const disagree = await post(`${strict.url}/call`, envelope, {
      'X-MPL-SType': 'org.agent.TaskPlan.v1',
    });
    expect(disagree.status).toBe(400);
  });

  it('records and lets failures through in transparent mode', async () => {
    const transparent = await proxyWith({ mode: 'transparent' });
    const payload = { ...taskPlan, goal: '' };
    const response = await post(
      `${transparent.url}/call`,
      { method: 'agent.plan', payload },
      plan(),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-mpl-qom-result')).toBe('fail');
    expect(await readJson(response)).toMatchObject({
      valid: false,
      qom: { passed: false, failures: [{ metric: 'schema_fidelity' }] },
      errors: [{ path: '/goal' }],
      provenance: { seq: 1 },
    });
    const chain = await transparent.store.chain(planId);
    expect(chain).toMatchObject([{ qom_passed: false }]);
  });

  it('answers 413 in the reference shape for a body over the limit, and the client reads it', async () => {
    const small = await proxyWith({ maxBodyBytes: 1024 });
    const big = JSON.stringify({
      method: 'agent.plan',
      payload: { goal: 'x'.repeat(2 * 1024 * 1024) },
    });
    const declared = await post(`${small.url}/call`, big, plan());
    expect(declared.status).toBe(413);
    expect(await readJson(declared)).toMatchObject({ error: 'E-PAYLOAD-TOO-LARGE' });
    // Chunked, with no Content-Length: the limit is found while reading.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(
        `${small.url}/call`,
        { method: 'POST', headers: { ...plan(), 'content-type': 'application/json' } },
        (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      request.on('error', reject);
      for (let index = 0; index < 64; index++) request.write('x'.repeat(32 * 1024));
      request.end();
    });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ error: 'E-PAYLOAD-TOO-LARGE' });
    const after = await post(
      `${small.url}/call`,
      { method: 'agent.plan', payload: { ...taskPlan, steps: taskPlan.steps.slice(0, 1) } },
      plan(),
    );
    expect(after.status).toBe(200);
  });
});

describe('the other routes', () => {
  it('GET /health', async () => {
    const response = await fetch(`${strict.url}/health`);
    expect(await readJson(response)).toEqual({ status: 'healthy', version: expect.any(String) });
  });

  it('GET /capabilities', async () => {
    expect(await readJson(await fetch(`${strict.url}/capabilities`))).toMatchObject({
      mpl_version: '1.0',
      mode: 'strict',
      hash_algorithm: 'sha256',
      profiles: ['qom-basic', 'qom-strict-argcheck', 'qom-outcome', 'qom-comprehensive'],
      stypes: expect.arrayContaining(['org.agent.TaskPlan.v1', 'eval.rag.RAGQuery.v1']),
      capabilities: { schema_validation: true, semantic_hashing: true },
    });
  });

  it('POST /.well-known/ai-alpn', async () => {
    const response = await post(`${strict.url}/.well-known/ai-alpn`, {
      type: 'ai-alpn-hello',
      version: '1.0',
      stypes: ['org.agent.TaskPlan.v1', 'org.unknown.Thing.v1'],
      qom_profiles: ['qom-nope', 'qom-strict-argcheck'],
    });
    expect(await readJson(response)).toMatchObject({
      type: 'ai-alpn-select',
      common_stypes: ['org.agent.TaskPlan.v1'],
      selected_profile: 'qom-strict-argcheck',
    });
    expect((await post(`${strict.url}/.well-known/ai-alpn`, { type: 'x' })).status).toBe(400);
  });

  it('GET /stypes and /stypes/:id', async () => {
    const list = await readJson(await fetch(`${strict.url}/stypes?namespace=eval.rag`));
    expect(list.stypes.map((summary: { id: string }) => summary.id)).toEqual([
      'eval.rag.RAGQuery.v1',
      'eval.rag.RAGResponse.v1',
    ]);
    const one = await readJson(await fetch(`${strict.url}/stypes/org.agent.TaskPlan.v1`));
    expect(one).toMatchObject({
      id: 'org.agent.TaskPlan.v1',
      schema: { title: 'Agent Task Plan' },
    });
    expect(one).not.toHaveProperty('source');
    const missing = await fetch(`${strict.url}/stypes/org.x.Y.v1`);
    expect(missing.status).toBe(404);
    expect((await readJson(missing)).error).toBe('E-NOT-FOUND');
  });

  it('GET /provenance and /provenance/verify, with their errors', async () => {
    const chain = await readJson(await fetch(`${strict.url}/provenance?planId=${planId}`));
    expect(chain.planId).toBe(planId);
    expect(chain.chain[0]).not.toHaveProperty('payload');
    const withPayloads = await readJson(
      await fetch(`${strict.url}/provenance?planId=${planId}&payloads=true`),
    );
    expect(withPayloads.chain[0].payload).toEqual(taskPlan);
    expect(
      await readJson(await fetch(`${strict.url}/provenance/verify?planId=${planId}`)),
    ).toMatchObject({ valid: true });
    expect((await fetch(`${strict.url}/provenance`)).status).toBe(400);
    expect((await fetch(`${strict.url}/provenance?planId=nobody`)).status).toBe(404);
  });

  it('GET /metrics in Prometheus text', async () => {
    const text = await (await fetch(`${strict.url}/metrics`)).text();
    expect(text).toContain('# TYPE mpl_requests_total counter');
    expect(text).toMatch(/mpl_schema_validations_total\{result="pass"\} \d+/);
    expect(text).toMatch(/mpl_schema_validations_total\{result="fail"\} \d+/);
    expect(text).toMatch(/mpl_errors_total\{code="E-SCHEMA-FIDELITY"\} \d+/);
    expect(text).toMatch(/mpl_provenance_entries_total \d+/);
  });

  it('GET /metrics counts the syncs of a SQLite log that answers after syncing, and only then', async () => {
    const durable = await startProxy({
      port: 0,
      dataDir: await mkdtemp(join(tmpdir(), 'mpl-metrics-')),
    });
    started.push(durable);
    const answer = await post(
      `${durable.url}/call`,
      { method: 'agent.plan', payload: taskPlan },
      plan(),
    );
    expect(answer.status).toBe(200);
    const text = await (await fetch(`${durable.url}/metrics`)).text();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(value('mpl_provenance_log_syncs_total')).toBeGreaterThanOrEqual(1);
    expect(value('mpl_provenance_log_synced_commits_total')).toBeGreaterThanOrEqual(1);
    expect(value('mpl_provenance_log_sync_seconds_total')).toBeGreaterThan(0);
    const inMemory = await (await fetch(`${strict.url}/metrics`)).text();
    expect(inMemory).not.toContain('mpl_provenance_log_syncs_total');
  });

  it('answers unknown routes with 404 and wrong methods with 405, never 500', async () => {
    const unknown = await fetch(`${strict.url}/nope`);
    expect(unknown.status).toBe(404);
    expect((await readJson(unknown)).error).toBe('E-NOT-FOUND');
    const wrong = await fetch(`${strict.url}/call`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect((await post(`${strict.url}/health`, {})).status).toBe(405);
  });
});

describe('the bearer token', () => {
  it('guards every route but /health', async () => {
    const guarded = await proxyWith({
      token: 's3cret',
      dataDir: await mkdtemp(join(tmpdir(), 'mpl-token-')),
    });
    expect((await fetch(`${guarded.url}/health`)).status).toBe(200);
    for (const path of ['/capabilities', '/stypes', '/metrics', `/provenance?planId=${planId}`]) {
      const response = await fetch(`${guarded.url}${path}`);
      expect(response.status, path).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('Bearer');
      expect((await readJson(response)).error).toBe('E-UNAUTHORIZED');
    }
    expect(
      (await post(`${guarded.url}/call`, { method: 'm', payload: taskPlan }, plan())).status,
    ).toBe(401);
    const wrong = await fetch(`${guarded.url}/capabilities`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    const right = await post(
      `${guarded.url}/call`,
      { method: 'm', payload: taskPlan },
      plan({ authorization: 'Bearer s3cret' }),
    );
    expect(right.status).toBe(200);
  });
});
