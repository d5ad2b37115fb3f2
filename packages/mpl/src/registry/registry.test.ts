import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RegistryError } from '../errors';
import { BUILTIN_PAYLOAD_SCHEMAS, isBuiltinSTypeId } from './payloads';
import { STypeRegistry } from './registry';

let registry: STypeRegistry;
beforeAll(async () => {
  registry = await STypeRegistry.load();
});

async function writeTree(files: Record<string, unknown>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'mpl-registry-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(
      join(root, path),
      typeof content === 'string' ? content : JSON.stringify(content),
    );
  }
  return root;
}

describe('the built-in STypes', () => {
  it('ship the tutorial four and the RAG query with its response', () => {
    expect(registry.ids()).toEqual([
      'ai.agent.Reasoning.v1',
      'eval.rag.RAGQuery.v1',
      'eval.rag.RAGResponse.v1',
      'org.agent.TaskPlan.v1',
      'org.agent.ToolInvocation.v1',
      'org.agent.ToolResult.v1',
    ]);
  });

  it('every SType has examples and negative examples', () => {
    for (const id of registry.ids()) {
      const definition = registry.get(id);
      expect(definition?.examples.length, id).toBeGreaterThan(0);
      expect(definition?.negatives.length, id).toBeGreaterThan(0);
    }
  });

  it('every example validates (both layers) and passes every assertion', () => {
    for (const id of registry.ids()) {
      for (const example of registry.get(id)?.examples ?? []) {
        const validation = registry.validateMessage(id, example.payload);
        expect(validation.errors, `${id} examples/${example.name}`).toEqual([]);
        const report = registry.assertions(id)?.evaluate(example.payload);
        expect(report?.instructionCompliance ?? 1, `${id} examples/${example.name}`).toBe(1);
      }
    }
  });

  it('every negative example fails validation', () => {
    for (const id of registry.ids()) {
      for (const negative of registry.get(id)?.negatives ?? []) {
        const validation = registry.validateMessage(id, negative.payload);
        expect(validation.valid, `${id} negative/${negative.name}`).toBe(false);
        expect(validation.errors.length, `${id} negative/${negative.name}`).toBeGreaterThan(0);
      }
    }
  });

  it('the zod types agree with the JSON Schemas on every example and single-layer negative', () => {
    for (const id of registry.ids()) {
      if (!isBuiltinSTypeId(id)) continue;
      const schema = BUILTIN_PAYLOAD_SCHEMAS[id];
      for (const example of registry.get(id)?.examples ?? [])
        expect(schema.safeParse(example.payload).success, `${id} examples/${example.name}`).toBe(
          true,
        );
      for (const negative of registry.get(id)?.negatives ?? []) {
        if (!registry.validate(id, negative.payload).valid)
          expect(
            schema.safeParse(negative.payload).success,
            `${id} negative/${negative.name}`,
          ).toBe(false);
      }
    }
  });

  it('lists by namespace, part by part', () => {
    expect(registry.list({ namespace: 'org.agent' }).map((summary) => summary.id)).toEqual([
      'org.agent.TaskPlan.v1',
      'org.agent.ToolInvocation.v1',
      'org.agent.ToolResult.v1',
    ]);
    expect(registry.list({ namespace: 'eval' })).toHaveLength(2);
    expect(registry.list({ namespace: 'or' })).toEqual([]);
    expect(registry.list({ namespace: 'org.agent' })[0]).toMatchObject({
      namespace: 'org',
      domain: 'agent',
      name: 'TaskPlan',
      version: 1,
      title: 'Agent Task Plan',
    });
  });

  it('finds an SType by its urn too', () => {
    expect(registry.has('urn:stype:org.agent.TaskPlan.v1')).toBe(true);
    expect(registry.has('org.agent.Missing.v1')).toBe(false);
  });
});

describe('validation errors', () => {
  it('point at the offending member by JSON path', () => {
    const validation = registry.validate('org.agent.TaskPlan.v1', {
      planId: 'not-a-uuid',
      goal: 'g',
      steps: [
        { stepId: 0, action: 'a', tool: 't', extra: true },
        { action: 'b', tool: 't' },
      ],
    });
    expect(validation.errors.map((error) => [error.path, error.message])).toEqual([
      ['/planId', 'must be a valid uuid'],
      ['/steps/0/extra', 'is not allowed here (the schema permits no additional properties)'],
      ['/steps/0/stepId', 'must be >= 1'],
      ['/steps/1/stepId', 'is required'],
    ]);
  });
});

describe('double validation (args against args_stype)', () => {
  const invocation = {
    invocationId: '550e8400-e29b-41d4-a716-446655440020',
    planId: '550e8400-e29b-41d4-a716-446655440010',
    stepId: 1,
    tool: 'web_search',
    args: { query: 'pricing', context: { maxDocuments: 500 } },
    args_stype: 'eval.rag.RAGQuery.v1',
  };

  it('reports the args layer with paths inside the message', () => {
    const validation = registry.validateMessage('org.agent.ToolInvocation.v1', invocation);
    expect(validation).toMatchObject({
      valid: false,
      code: 'E-TOOL-ARG-COERCION',
      argsStype: 'eval.rag.RAGQuery.v1',
    });
    expect(validation.errors).toEqual([
      {
        path: '/args/context/maxDocuments',
        message: 'must be <= 100',
        layer: 'args',
        stype: 'eval.rag.RAGQuery.v1',
      },
    ]);
  });

  it('reports both layers when both fail, the message first', () => {
    const validation = registry.validateMessage('org.agent.ToolInvocation.v1', {
      ...invocation,
      stepId: 'one',
      args: {},
    });
    expect(validation.code).toBe('E-SCHEMA-FIDELITY');
    expect(validation.errors.map((error) => [error.layer, error.path])).toEqual([
      ['payload', '/stepId'],
      ['args', '/args/query'],
    ]);
  });

  it('reports an args_stype that is not registered', () => {
    const validation = registry.validateMessage('org.agent.ToolInvocation.v1', {
      ...invocation,
      args_stype: 'org.report.Summary.v1',
    });
    expect(validation).toMatchObject({ valid: false, code: 'E-UNKNOWN-STYPE' });
    expect(validation.errors[0]).toMatchObject({ path: '/args_stype', layer: 'args' });
  });

  it('accepts valid args', () => {
    const validation = registry.validateMessage('org.agent.ToolInvocation.v1', {
      ...invocation,
      args: { query: 'pricing' },
    });
    expect(validation).toEqual({ valid: true, errors: [], argsStype: 'eval.rag.RAGQuery.v1' });
  });
});

describe('loading folders in the reference layout', () => {
  const step = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:stype:org.workflow.Step.v1',
    type: 'object',
    required: ['stepId', 'name'],
    properties: { stepId: { type: 'string' }, name: { type: 'string', minLength: 1 } },
  };
  const pipeline = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:stype:org.workflow.Pipeline.v1',
    type: 'object',
    required: ['steps'],
    properties: { steps: { type: 'array', items: { $ref: 'urn:stype:org.workflow.Step.v1' } } },
  };

  it('resolves $ref between schemas by their urn $id, from a registry root holding stypes/', async () => {
    const root = await writeTree({
      'stypes/org/workflow/Step/v1/schema.json': step,
      'stypes/org/workflow/Pipeline/v1/schema.json': pipeline,
      'stypes/org/workflow/Pipeline/v1/examples/one_step.json': {
        steps: [{ stepId: 's1', name: 'Fetch' }],
      },
      'stypes/org/workflow/Pipeline/v1/negative/nameless_step.json': { steps: [{ stepId: 's1' }] },
    });
    const loaded = await STypeRegistry.load({ directories: [root], builtins: false });
    expect(loaded.ids()).toEqual(['org.workflow.Pipeline.v1', 'org.workflow.Step.v1']);
    const definition = loaded.get('org.workflow.Pipeline.v1');
    expect(
      loaded.validate('org.workflow.Pipeline.v1', definition?.examples[0]?.payload).valid,
    ).toBe(true);
    expect(
      loaded.validate('org.workflow.Pipeline.v1', definition?.negatives[0]?.payload).errors,
    ).toEqual([
      {
        path: '/steps/0/name',
        message: 'is required',
        layer: 'payload',
        stype: 'org.workflow.Pipeline.v1',
      },
    ]);
  });

  it('registers schemas without a urn $id under their urn as well', async () => {
    const root = await writeTree({
      'org/x/Step/v1/schema.json': { ...step, $id: 'https://example.com/step.json' },
      'org/x/Pipeline/v1/schema.json': {
        type: 'object',
        properties: { steps: { type: 'array', items: { $ref: 'urn:stype:org.x.Step.v1' } } },
      },
    });
    const loaded = await STypeRegistry.load({ directories: [root], builtins: false });
    expect(loaded.validate('org.x.Pipeline.v1', { steps: [{}] }).valid).toBe(false);
  });

  it('lets a later folder replace a built-in, and says so', async () => {
    const root = await writeTree({
      'org/agent/TaskPlan/v1/schema.json': {
        $id: 'urn:stype:org.agent.TaskPlan.v1',
        type: 'object',
      },
    });
    const loaded = await STypeRegistry.load({ directories: [root] });
    expect(loaded.overridden).toEqual(['org.agent.TaskPlan.v1']);
    expect(loaded.validate('org.agent.TaskPlan.v1', {}).valid).toBe(true);
  });

  it.each([
    ['a schema in a folder that is no SType id', { 'org/agent/schema.json': {} }, /not at stypes/],
    [
      'an $id that names another SType',
      { 'org/a/B/v1/schema.json': { $id: 'urn:stype:org.a.C.v1' } },
      /declares \$id/,
    ],
    ['a file that is not JSON', { 'org/a/B/v1/schema.json': '{ nope' }, /not valid JSON/],
    [
      'a schema that is not a schema',
      { 'org/a/B/v1/schema.json': { type: 12 } },
      /not a valid JSON Schema/,
    ],
    [
      'a $ref to nothing',
      { 'org/a/B/v1/schema.json': { $ref: 'urn:stype:org.a.Missing.v1' } },
      /does not compile/,
    ],
    [
      'an assertion that is not CEL',
      {
        'org/a/B/v1/schema.json': { type: 'object' },
        'org/a/B/v1/assertions.json': {
          assertions: [{ id: 'x', expression: 'payload.a >', message: 'm' }],
        },
      },
      /"x" is not valid CEL/,
    ],
  ])('refuses %s with a RegistryError', async (_name, files, message) => {
    const root = await writeTree(files);
    const error = await STypeRegistry.load({ directories: [root], builtins: false }).catch(
      (cause) => cause,
    );
    expect(RegistryError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it('refuses a folder that does not exist', async () => {
    await expect(STypeRegistry.load({ directories: ['/nonexistent/mpl'] })).rejects.toThrowError(
      /does not exist/,
    );
  });
});
