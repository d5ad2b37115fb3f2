import { describe, expect, it } from 'vitest';
import { RegistryError } from '../errors';
import { compileAssertionSet } from './assertions';

const assertion = (id: string, expression: string, severity = 'error') => ({
  id,
  expression,
  message: `${id} failed`,
  severity,
  tags: [],
});

describe('CEL assertions', () => {
  it('computes instruction compliance as passed ÷ assertions', () => {
    const set = compileAssertionSet({
      name: 'amounts',
      assertions: [
        assertion('positive', 'payload.amount > 0'),
        assertion('currency', "payload.currency in ['USD', 'EUR']"),
        assertion('memo', "payload.memo.startsWith('inv-')", 'warning'),
        assertion('fraction', 'payload.rate < 0.5'),
      ],
    });
    const report = set.evaluate({ amount: 10, currency: 'GBP', memo: 'inv-7', rate: 0.25 });
    expect(report.instructionCompliance).toBe(0.75);
    expect(report).toMatchObject({ passed: 3, failed: 1, errors: 1, skipped: 0 });
    expect(report.results.find((result) => !result.passed)).toMatchObject({
      id: 'currency',
      message: 'currency failed',
      severity: 'error',
    });
  });

  it('is 1 when there are no assertions', () => {
    expect(compileAssertionSet({ assertions: [] }).evaluate({}).instructionCompliance).toBe(1);
  });

  it.each([
    ['false', false],
    ['null', false],
    ['0', false],
    ['0.0', false],
    ["''", false],
    ['[]', false],
    ['{}', false],
    ['1', true],
    ["'x'", true],
    ['[0]', true],
    ["{'a': 1}", true],
    ['true', true],
  ])('treats %s as %s', (expression, passed) => {
    const set = compileAssertionSet({ assertions: [assertion('truthy', expression)] });
    expect(set.evaluate({}).results[0]?.passed).toBe(passed);
  });

  it('counts an evaluation error as a failure and says why', () => {
    const set = compileAssertionSet({ assertions: [assertion('missing', 'payload.absent > 0')] });
    const report = set.evaluate({});
    expect(report.instructionCompliance).toBe(0);
    expect(report.results[0]).toMatchObject({
      passed: false,
      error: expect.stringMatching(/absent/),
    });
  });

  it('stops at the first failed error with fail_fast, keeping the full denominator', () => {
    const set = compileAssertionSet({
      fail_fast: true,
      assertions: [
        assertion('warn', 'false', 'warning'),
        assertion('first', 'true'),
        assertion('stop', 'false'),
        assertion('never', 'true'),
      ],
    });
    const report = set.evaluate({});
    expect(report.results.map((result) => result.id)).toEqual(['warn', 'first', 'stop']);
    expect(report).toMatchObject({ passed: 1, skipped: 1, instructionCompliance: 0.25 });
  });

  it('binds args, response, stype, tool and metadata when a context is given', () => {
    const set = compileAssertionSet({
      assertions: [
        assertion('args', 'args.limit <= 10'),
        assertion('response', "response.status == 'ok'"),
        assertion('stype', "stype.endsWith('.v1')"),
        assertion('tool', "tool == 'search'"),
        assertion('metadata', "metadata.tenant == 'acme'"),
        assertion(
          'whole numbers are int',
          'type(payload.count) == int && type(payload.ratio) == double',
        ),
      ],
    });
    const report = set.evaluate(
      { count: 3, ratio: 0.5 },
      {
        args: { limit: 5 },
        response: { status: 'ok' },
        stype: 'org.x.Y.v1',
        tool: 'search',
        metadata: { tenant: 'acme' },
      },
    );
    expect(report.results.filter((result) => !result.passed)).toEqual([]);
  });

  it('refuses an expression that does not parse, naming the assertion', () => {
    expect(() => compileAssertionSet({ assertions: [assertion('broken', '1 +')] })).toThrowError(
      RegistryError,
    );
    expect(() => compileAssertionSet({ assertions: 'nope' })).toThrowError(/not an assertion set/);
  });
});
