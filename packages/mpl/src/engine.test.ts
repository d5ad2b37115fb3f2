import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MplEngine } from './engine';
import {
  AssertionFailedError,
  NegotiationIncompatibleError,
  QomBreachError,
  SchemaFidelityError,
  UnknownStypeError,
} from './errors';
import { semanticHash } from './hashing/semantic-hash';
import { builtinSTypesDirectory } from './registry/registry-loader';

let engine: MplEngine;
const example = async (path: string) =>
  JSON.parse(await readFile(join(builtinSTypesDirectory(), path), 'utf8')) as Record<
    string,
    unknown
  >;

beforeAll(async () => {
  engine = await MplEngine.create();
});

describe('MplEngine.inspect', () => {
  it('accepts the tutorial plan with its semantic hash and QoM report', async () => {
    const plan = await example('org/agent/TaskPlan/v1/examples/competitor_pricing.json');
    const verdict = engine.inspect('org.agent.TaskPlan.v1', plan, {
      profile: 'qom-strict-argcheck',
    });
    expect(verdict).toMatchObject({
      stype: 'org.agent.TaskPlan.v1',
      valid: true,
      accepted: true,
      errors: [],
      semHash: semanticHash(plan),
      planId: plan.planId,
      qom: {
        profile: 'qom-strict-argcheck',
        passed: true,
        metrics: { schema_fidelity: 1, instruction_compliance: 1 },
      },
    });
    expect(verdict.code).toBeUndefined();
  });

  it('hashes with BLAKE3 when asked', async () => {
    const b3 = await MplEngine.create({ hashAlgorithm: 'b3' });
    expect(b3.inspect('eval.rag.RAGQuery.v1', { query: 'q' }).semHash).toBe(
      semanticHash({ query: 'q' }, { algorithm: 'b3' }),
    );
  });

  it('fails schema fidelity, and its rejection lists every failing path', () => {
    const verdict = engine.inspect('org.agent.TaskPlan.v1', { goal: '' });
    expect(verdict).toMatchObject({ valid: false, accepted: false, code: 'E-SCHEMA-FIDELITY' });
    expect(verdict.qom.metrics.schema_fidelity).toBe(0);
    const error = engine.rejection(verdict);
    expect(SchemaFidelityError.isInstance(error)).toBe(true);
    expect(error.toJSON()).toMatchObject({
      error: 'E-SCHEMA-FIDELITY',
      details: [
        { path: '/planId', message: 'is required' },
        { path: '/steps', message: 'is required' },
        { path: '/goal', message: 'must NOT have fewer than 1 characters' },
      ],
    });
  });

  it('blocks a valid plan whose steps depend on nothing real: an error-severity assertion failed', async () => {
    const plan = await example('org/agent/TaskPlan/v1/examples/competitor_pricing.json');
    const steps = [
      ...(plan.steps as object[]),
      { stepId: 4, action: 'x', tool: 'y', dependsOn: [9] },
    ];
    // Even qom-basic, which does not look at instruction compliance, blocks it.
    const verdict = engine.inspect('org.agent.TaskPlan.v1', { ...plan, steps });
    expect(verdict).toMatchObject({ valid: true, accepted: false, code: 'E-ASSERTION-FAILED' });
    expect(verdict.qom.passed).toBe(true);
    expect(verdict.qom.failed_assertions.map((assertion) => assertion.id)).toEqual([
      'dependencies_exist',
    ]);
    const error = engine.rejection(verdict);
    expect(AssertionFailedError.isInstance(error)).toBe(true);
    expect(error.details).toEqual([
      {
        path: '/qom/assertions/dependencies_exist',
        message: 'dependsOn must name other steps of the same plan',
      },
    ]);
  });

  it('reports a failed warning without blocking, yet a profile may still count it', async () => {
    const plan = await example('org/agent/TaskPlan/v1/examples/competitor_pricing.json');
    const blank = { ...plan, goal: '   ' };
    const basic = engine.inspect('org.agent.TaskPlan.v1', blank);
    expect(basic).toMatchObject({ valid: true, accepted: true });
    expect(basic.warnings?.map((warning) => warning.id)).toEqual(['goal_not_blank']);
    const verdict = engine.inspect('org.agent.TaskPlan.v1', blank, {
      profile: 'qom-strict-argcheck',
    });
    expect(verdict).toMatchObject({ valid: true, accepted: false, code: 'E-QOM-BREACH' });
    expect(verdict.qom.failures[0]?.metric).toBe('instruction_compliance');
    const error = engine.rejection(verdict);
    expect(QomBreachError.isInstance(error)).toBe(true);
    expect(error.details.map((detail) => detail.path)).toEqual([
      '/qom/metrics/instruction_compliance',
      '/qom/assertions/goal_not_blank',
    ]);
  });

  it('applies retry_policy.degrade_to once the same failing message exceeds max_retries', async () => {
    const own = await MplEngine.create();
    const plan = await example('org/agent/TaskPlan/v1/examples/competitor_pricing.json');
    const blank = { ...plan, goal: '  ' };
    const options = { profile: 'qom-strict-argcheck' };
    expect(own.inspect('org.agent.TaskPlan.v1', blank, options).accepted).toBe(false);
    const retried = own.inspect('org.agent.TaskPlan.v1', blank, options);
    expect(retried).toMatchObject({
      accepted: true,
      qom: { passed: true, profile: 'qom-basic', degraded_from: 'qom-strict-argcheck' },
    });
  });

  it('scores ontology adherence from ontology.json, unless a score is supplied', async () => {
    const own = await MplEngine.create({
      directories: [
        join(import.meta.dirname, '../../mpl-proxy/src/__fixtures__/reference-registry'),
      ],
    });
    const payload = { tool_name: 'MakePayment', tool_version: 'v9', arguments: {} };
    const verdict = own.inspect('org.agent.ToolInvocation.v1', payload, {
      profile: 'qom-comprehensive',
      scores: { groundedness: 1, determinism_jitter: 1, tool_outcome_correctness: 1 },
    });
    expect(verdict.ontology?.checked).toBe(6);
    expect(verdict.qom.metrics.ontology_adherence).toBeCloseTo(1 - 2 / 6);
    expect(verdict.qom.failures.map((failure) => failure.metric)).toContain('ontology_adherence');
    const supplied = own.inspect('org.agent.ToolInvocation.v1', payload, {
      scores: { ontology_adherence: 1 },
    });
    expect(supplied.ontology).toBeUndefined();
    expect(supplied.qom.metrics.ontology_adherence).toBe(1);
  });

  it('judges the metrics whose sample_rate the message falls under, and skips the others', async () => {
    const { evaluateQom } = await import('./qom/qom');
    const { BUILTIN_QOM_PROFILES } = await import('./qom/qom-profiles');
    const profile = BUILTIN_QOM_PROFILES['qom-comprehensive'];
    if (!profile) throw new Error('qom-comprehensive is built in');
    const report = evaluateQom(profile, {
      schema_fidelity: 1,
      instruction_compliance: 1,
      scores: {
        groundedness: 0,
        determinism_jitter: 0,
        ontology_adherence: 1,
        tool_outcome_correctness: 1,
      },
      samplePoint: 0.6,
    });
    expect(report.skipped).toEqual(['groundedness', 'determinism_jitter']);
    expect(report.passed).toBe(true);
    expect(
      evaluateQom(profile, {
        schema_fidelity: 1,
        instruction_compliance: 1,
        scores: { groundedness: 0 },
        samplePoint: 0.1,
      }).failures.map((failure) => failure.metric),
    ).toContain('groundedness');
  });

  it('judges an unknown SType when allowed (transparent mode), marked unvalidated', () => {
    const verdict = engine.inspect('org.report.Summary.v1', { a: 1 }, { allowUnknown: true });
    expect(verdict).toMatchObject({
      valid: false,
      accepted: false,
      validated: false,
      code: 'E-UNKNOWN-STYPE',
      semHash: semanticHash({ a: 1 }),
      qom: { passed: false },
    });
  });

  it('throws for an unknown SType, a malformed id and an unknown profile', () => {
    expect(() => engine.inspect('org.report.Summary.v1', {})).toThrowError(UnknownStypeError);
    expect(() => engine.inspect('TaskPlan', {})).toThrowError(/Malformed SType id/);
    expect(() => engine.inspect('org.agent.TaskPlan.v1', {}, { profile: 'qom-nope' })).toThrowError(
      NegotiationIncompatibleError,
    );
  });
});
