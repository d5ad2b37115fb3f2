import { describe, expect, it } from 'vitest';
import { UnknownStypeError } from '../errors';
import { formatSTypeId, isSTypeId, parseSTypeId } from './stype-id';

describe('SType ids', () => {
  it('parses namespace.domain.Name.vN', () => {
    expect(parseSTypeId('org.agent.TaskPlan.v1')).toEqual({
      ok: true,
      value: {
        namespace: 'org',
        domain: 'agent',
        name: 'TaskPlan',
        version: 1,
        id: 'org.agent.TaskPlan.v1',
        urn: 'urn:stype:org.agent.TaskPlan.v1',
      },
    });
  });

  it('takes dotted namespaces and the urn form', () => {
    const parsed = parseSTypeId('urn:stype:com.acme.finance.Trade.v2');
    expect(parsed.ok && parsed.value).toMatchObject({
      namespace: 'com.acme',
      domain: 'finance',
      version: 2,
    });
  });

  it.each([
    ['', /empty/],
    ['org.agent.TaskPlan', /at least 4/],
    ['org.agent.TaskPlan.1', /must be v followed by a number/],
    ['org.agent.TaskPlan.v01', /without leading zeros/],
    ['org.agent.TaskPlan.v1000', /above 999/],
    ['org..TaskPlan.v1', /empty part/],
    ['org.agent.Task Plan.v1', /must start with a letter/],
    [`${'a.'.repeat(12)}X.v1`, /deeper than 10/],
    [`org.agent.${'X'.repeat(300)}.v1`, /longer than 256/],
  ])('refuses %j with a clear UnknownStypeError', (text, reason) => {
    const parsed = parseSTypeId(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(UnknownStypeError.isInstance(parsed.error)).toBe(true);
    expect(parsed.error.code).toBe('E-UNKNOWN-STYPE');
    expect(parsed.error.message).toMatch(reason);
    expect(parsed.error.message).toMatch(/namespace\.domain\.Name\.vN/);
  });

  it('formats from parts and round-trips', () => {
    expect(formatSTypeId({ namespace: 'eval', domain: 'rag', name: 'RAGQuery', version: 1 })).toBe(
      'eval.rag.RAGQuery.v1',
    );
    expect(() => formatSTypeId({ namespace: 'x', domain: '', name: 'Y', version: 1 })).toThrowError(
      UnknownStypeError,
    );
    expect(isSTypeId('ai.agent.Reasoning.v1')).toBe(true);
    expect(isSTypeId(42)).toBe(false);
  });
});
