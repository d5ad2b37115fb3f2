import { describe, expect, it } from 'vitest';
import { semanticHash } from '../hashing/semantic-hash';
import { linkEntry, verifyChain } from './provenance';
import {
  provenanceEntryColumns,
  provenanceEntryOf,
  provenanceRowColumns,
  provenanceRowOf,
  provenanceRowValues,
} from './provenance-row';

function transparentEntry() {
  const payload = { step: 'call', value: 12 };
  return linkEntry(undefined, {
    plan_id: null,
    invocation_id: 'inv_1',
    stype: 'org.example.Unknown.v1',
    method: 'agent.call',
    sem_hash: semanticHash(payload),
    payload,
    qom_profile: 'qom-basic',
    qom_passed: true,
    validated: false,
    timestamp: '2026-12-01T10:00:00.000Z',
  });
}

describe('the provenance row', () => {
  it('an entry survives the round trip through a row, every field and `validated` kept', () => {
    const entry = transparentEntry();
    for (const flags of ['boolean', 'integer'] as const) {
      const row = provenanceRowOf(entry, { flags });
      expect(row.plan_key).toBe('');
      expect(provenanceEntryOf(row)).toEqual(entry);
      expect(verifyChain([provenanceEntryOf(row)]).valid).toBe(true);
    }
    expect(provenanceRowOf(entry, { flags: 'integer' })).toMatchObject({
      qom_passed: 1,
      validated: 0,
    });
    expect(provenanceRowOf(entry)).toMatchObject({ qom_passed: true, validated: false });
  });

  it('a validated entry stores `validated` as null and reads back without it', () => {
    const { validated: _validated, ...fields } = transparentEntry();
    const entry = linkEntry(undefined, { ...fields, plan_id: 'plan_1', payload: {} });
    const row = provenanceRowOf(entry, { flags: 'integer' });
    expect(row.validated).toBeNull();
    expect('validated' in provenanceEntryOf(row)).toBe(false);
  });

  it('a payload edited into invalid JSON reads back as text, so verifyChain reports it', () => {
    const row = { ...provenanceRowOf(transparentEntry()), payload: '{"step":' };
    const entry = provenanceEntryOf(row);
    expect(entry.payload).toBe('{"step":');
    expect(verifyChain([entry]).problems.map((problem) => problem.code)).toEqual([
      'sem_hash_mismatch',
    ]);
  });

  it('a row read without payloads gives an entry without one', () => {
    const { payload: _payload, ...row } = provenanceRowOf(transparentEntry());
    expect('payload' in provenanceEntryOf(row)).toBe(false);
  });

  it('the row values follow the column list, one value per column', () => {
    const entry = linkEntry(undefined, {
      plan_id: 'plan_1',
      invocation_id: null,
      stype: 'org.example.Step.v1',
      method: null,
      sem_hash: semanticHash({ a: 1 }),
      payload: { a: 1 },
      qom_profile: 'qom-basic',
      qom_passed: false,
      timestamp: '2026-12-01T10:00:00.000Z',
    });
    const values = provenanceRowValues(entry, { flags: 'integer' });
    expect(values).toHaveLength(provenanceRowColumns.length);
    const byColumn = Object.fromEntries(
      provenanceRowColumns.map((column, index) => [column, values[index]]),
    );
    expect(byColumn).toEqual({
      plan_key: 'plan_1',
      plan_id: 'plan_1',
      seq: 1,
      stype: 'org.example.Step.v1',
      method: null,
      invocation_id: null,
      sem_hash: entry.sem_hash,
      parent_hash: null,
      entry_hash: entry.entry_hash,
      timestamp: '2026-12-01T10:00:00.000Z',
      qom_profile: 'qom-basic',
      qom_passed: 0,
      validated: null,
      payload: '{"a":1}',
    });
  });

  it('the column lists name every field of an entry', () => {
    const { payload: _payload, ...entry } = transparentEntry();
    expect([...provenanceEntryColumns].sort()).toEqual(Object.keys(entry).sort());
    expect(provenanceRowColumns).toEqual(['plan_key', ...provenanceEntryColumns, 'payload']);
  });
});
