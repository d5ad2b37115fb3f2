import { describe, expect, it } from 'vitest';
import { inspectToolCall } from './call-graph';

describe('inspectToolCall', () => {
  it('returns the parsed call and its $ref targets in document order', () => {
    const inspection = inspectToolCall({
      id: 'call_3',
      name: 'calculator.add',
      arguments: { a: { $ref: 'call_1' }, list: [{ $ref: 'call_2', $path: '/x' }] },
    });
    expect(inspection).toEqual({
      id: 'call_3',
      name: 'calculator.add',
      call: {
        id: 'call_3',
        name: 'calculator.add',
        arguments: { a: { $ref: 'call_1' }, list: [{ $ref: 'call_2', $path: '/x' }] },
        depends_on: [],
      },
      refTargets: ['call_1', 'call_2'],
      issues: [],
    });
  });

  it('reports shape problems with the messages plan validation uses, at the given location', () => {
    const inspection = inspectToolCall(
      { id: 'call_1', name: '', arguments: '{"a":1}' },
      'calls[4]',
    );
    expect(inspection.id).toBe('call_1');
    expect(inspection.name).toBeUndefined();
    expect(inspection.call).toBeUndefined();
    expect(inspection.issues.map((issue) => [issue.code, issue.location])).toEqual([
      ['empty_name', 'calls[4]'],
      ['invalid_call', 'calls[4]'],
    ]);
    expect(inspection.issues[1]?.message).toContain('not JSON encoded in a string');
  });

  it('keeps the name of a call whose id is unusable', () => {
    const inspection = inspectToolCall({ id: 7, name: 'calculator.add' });
    expect(inspection).toMatchObject({ id: undefined, name: 'calculator.add', call: undefined });
    expect(inspection.issues[0]?.code).toBe('empty_id');
    expect(inspectToolCall(null).issues[0]?.code).toBe('invalid_call');
  });
});
