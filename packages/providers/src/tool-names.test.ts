import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolNameMapping, PROVIDER_TOOL_NAME_PATTERN, sanitizeToolName } from './tool-names';

describe('createToolNameMapping', () => {
  it('maps dotted names to names the APIs accept, and back', () => {
    const names = createToolNameMapping(['calculator.add', 'file.read_file', 'search']);
    expect(names.entries).toEqual([
      ['calculator.add', 'calculator_add'],
      ['file.read_file', 'file_read_file'],
      ['search', 'search'],
    ]);
    for (const [name, wire] of names.entries) {
      expect(names.toProvider(name)).toBe(wire);
      expect(names.fromProvider(wire)).toBe(name);
    }
  });

  it('never lets a mapped name take the name of another tool', () => {
    const names = createToolNameMapping(['calculator.add', 'calculator_add', 'calculator-add']);
    expect(names.toProvider('calculator_add')).toBe('calculator_add');
    expect(names.toProvider('calculator.add')).toBe('calculator_add_2');
    expect(names.fromProvider('calculator_add_2')).toBe('calculator.add');
    expect(names.fromProvider('calculator_add')).toBe('calculator_add');
  });

  it('cuts long names to 64 characters and keeps them distinct', () => {
    const long = `toolkit.${'x'.repeat(80)}`;
    const names = createToolNameMapping([`${long}.a`, `${long}.b`]);
    const [first, second] = names.entries.map(([, wire]) => wire);
    expect(first).toHaveLength(64);
    expect(second).toHaveLength(64);
    expect(first).not.toBe(second);
    expect(names.fromProvider(second ?? '')).toBe(`${long}.b`);
  });

  it('leaves an unknown returned name as the model sent it', () => {
    const names = createToolNameMapping(['calculator.add']);
    expect(names.fromProvider('calculator_pow')).toBe('calculator_pow');
    expect(names.fromProvider('calculator.add')).toBe('calculator.add');
  });

  it('sanitizes names outside the mapping (tools of earlier rounds)', () => {
    expect(createToolNameMapping([]).toProvider('file.write_file')).toBe('file_write_file');
    expect(sanitizeToolName('')).toBe('_');
    expect(sanitizeToolName('agent.member.écrivain')).toBe('agent_member__crivain');
  });

  it('is valid, injective and reversible for any set of names', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 90 }), { maxLength: 12 }),
        (list) => {
          const names = createToolNameMapping(list);
          const wires = list.map((name) => names.toProvider(name));
          expect(new Set(wires).size).toBe(list.length);
          for (const [index, name] of list.entries()) {
            const wire = wires[index] ?? '';
            expect(wire).toMatch(PROVIDER_TOOL_NAME_PATTERN);
            expect(names.fromProvider(wire)).toBe(name);
          }
        },
      ),
    );
  });

  it('gives the same wire names for the same tool list', () => {
    const list = ['a.b', 'a_b', 'a-b', 'a.b.c'];
    expect(createToolNameMapping(list).entries).toEqual(createToolNameMapping(list).entries);
  });
});
