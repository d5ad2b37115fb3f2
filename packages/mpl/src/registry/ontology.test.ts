import { describe, expect, it } from 'vitest';
import { compileOntology } from './ontology';

// The ToolInvocation ontology of the reference registry (see
// packages/mpl-proxy/src/__fixtures__/reference-registry/SOURCES.md), in its on-disk layout.
const toolInvocationOntology = {
  relationships: [
    {
      name: 'idempotent_implies_retriable',
      type: 'implies',
      if_field: 'constraints.idempotent',
      if_value: true,
      then_field: 'constraints.max_retries',
      then_condition: 'may_exist',
    },
    {
      name: 'payment_excludes_auto_retry',
      type: 'excludes',
      if_field: 'tool_name',
      if_value: 'make_payment',
      then_field: 'constraints.max_retries',
      then_condition: 'must_be_zero_or_absent',
    },
  ],
  type_constraints: [
    {
      field: 'tool_name',
      constraint: 'snake_case',
      message: 'Tool names should use snake_case format',
    },
    { field: 'context.user_id', constraint: 'uuid', message: 'User ID should be a valid UUID' },
    {
      field: 'context.session_id',
      constraint: 'non_empty',
      message: 'Session ID must not be empty if present',
    },
  ],
  allowed_values: { tool_version: ['v1', 'v2', 'v3'] },
  domain_rules: [{ id: 'sensitive_tools', requirement: 'context.user_id must be present' }],
};

describe('compileOntology', () => {
  const ontology = compileOntology(toolInvocationOntology);

  it('counts the constraints of the reference file and scores an adherent payload 1', () => {
    expect(ontology.constraints).toBe(6);
    const report = ontology.check({
      tool_name: 'make_payment',
      tool_version: 'v2',
      context: { user_id: '2b1f0c8e-3a5d-4c7b-9e6f-1a2b3c4d5e6f', session_id: 's1' },
      constraints: { max_retries: 0 },
    });
    expect(report).toEqual({ score: 1, checked: 6, violations: [] });
  });

  it('scores 1 − violations ÷ constraints and names each violation', () => {
    const report = ontology.check({
      tool_name: 'MakePayment',
      tool_version: 'v7',
      context: { user_id: 'not-a-uuid', session_id: ' ' },
      constraints: { max_retries: 3 },
    });
    expect(report.violations.map((violation) => violation.rule).sort()).toEqual([
      'allowed_values:tool_version',
      'type:context.session_id',
      'type:context.user_id',
      'type:tool_name',
    ]);
    expect(report.score).toBeCloseTo(1 - 4 / 6);
    const payment = ontology.check({ tool_name: 'make_payment', constraints: { max_retries: 2 } });
    expect(payment.violations.map((violation) => violation.rule)).toEqual([
      'relationship:payment_excludes_auto_retry',
    ]);
  });

  it('reads the library layout too: type constraints by path, implies, cardinality', () => {
    const library = compileOntology({
      type_constraints: { age: { semantic_type: 'number', min: 0, max: 150 } },
      relationships: [
        { id: 'end_needs_start', from: 'end', to: 'start', relation_type: 'implies' },
      ],
      cardinality: { tags: { min: 1, max: 2, unique: true } },
    });
    expect(library.check({ age: 40, end: 'x', start: 'y', tags: ['a'] }).score).toBe(1);
    expect(library.check({ age: 200, end: 'x', tags: ['a', 'a'] }).violations).toHaveLength(3);
  });
});
