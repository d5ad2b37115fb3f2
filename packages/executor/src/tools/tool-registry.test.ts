import { describe, expect, it, vi } from 'vitest';
import { ExecutorError } from '../errors';
import { defineTool } from './define-tool';
import { ToolRegistry } from './tool-registry';
import { defineToolkit } from './toolkit';

const tool = (name: string) =>
  defineTool({
    name,
    description: `${name} tool`,
    input_schema: { type: 'object' },
    execute: () => name,
  });

describe('ToolRegistry', () => {
  it('registers, gets, lists (as ToolSpecs) and unregisters tools', () => {
    const registry = new ToolRegistry([tool('a.one')]).register(tool('b.two'), [tool('c')]);
    expect(registry.get('a.one')?.name).toBe('a.one');
    expect(registry.has('c')).toBe(true);
    expect(registry.list()).toEqual([
      {
        name: 'a.one',
        description: 'a.one tool',
        input_schema: { type: 'object' },
        tags: [],
        risk_level: 'read_only',
      },
      {
        name: 'b.two',
        description: 'b.two tool',
        input_schema: { type: 'object' },
        tags: [],
        risk_level: 'read_only',
      },
      {
        name: 'c',
        description: 'c tool',
        input_schema: { type: 'object' },
        tags: [],
        risk_level: 'read_only',
      },
    ]);
    expect(registry.unregister('a.one')).toBe(true);
    expect(registry.unregister('a.one')).toBe(false);
    expect(registry.get('a.one')).toBeUndefined();
    expect(registry.size).toBe(2);
  });

  it('rejects duplicate names and tools that are not tools', () => {
    const registry = new ToolRegistry([tool('a.one')]);
    expect(() => registry.register(tool('a.one'))).toThrow(
      expect.objectContaining({
        code: 'duplicate_tool',
        message: 'A tool named "a.one" is already registered; tool names must be unique.',
      }),
    );
    expect(() => registry.register({ name: 'x' } as never)).toThrow(
      expect.objectContaining({ code: 'invalid_tool' }),
    );
  });

  it('loads a toolkit on first use of its prefix, once', () => {
    const load = vi.fn(() => [tool('math.add'), tool('math.sub')]);
    const registry = new ToolRegistry([defineToolkit({ name: 'math', load })]);
    expect(registry.get('other.x')).toBeUndefined();
    expect(load).not.toHaveBeenCalled();
    expect(registry.get('math.add')?.name).toBe('math.add');
    expect(registry.get('math.sub')?.name).toBe('math.sub');
    expect(registry.get('math.mul')).toBeUndefined();
    expect(load).toHaveBeenCalledOnce();
    expect(registry.toolkits().map((toolkit) => toolkit.name)).toEqual(['math']);
  });

  it('loads an async toolkit through resolve() and load(); list() shows it once loaded', async () => {
    const registry = new ToolRegistry([
      defineToolkit({ name: 'remote', load: async () => [tool('remote.ping')] }),
    ]);
    expect(registry.get('remote.ping')).toBeUndefined(); // loading has begun
    expect(registry.has('remote.ping')).toBe(true);
    expect((await registry.resolve('remote.ping'))?.name).toBe('remote.ping');
    const other = new ToolRegistry([
      defineToolkit({ name: 'remote', load: async () => [tool('remote.ping')] }),
    ]);
    expect(other.list()).toEqual([]);
    await other.load();
    expect(other.list().map((spec) => spec.name)).toEqual(['remote.ping']);
  });

  it('keeps toolkit prefixes to their toolkits', () => {
    const registry = new ToolRegistry([
      defineToolkit({ name: 'math', load: () => [tool('math.add')] }),
    ]);
    expect(() => registry.register(tool('math.pow'))).toThrow(/belong to the toolkit "math"/);
    expect(() => registry.register(defineToolkit({ name: 'math', load: () => [] }))).toThrow(
      ExecutorError,
    );
    expect(
      () => new ToolRegistry([tool('net.get'), defineToolkit({ name: 'net', load: () => [] })]),
    ).toThrow(/already uses its prefix/);
    const stray = new ToolRegistry([defineToolkit({ name: 'kit', load: () => [tool('other.x')] })]);
    expect(() => stray.get('kit.x')).toThrow(
      expect.objectContaining({ code: 'toolkit_load_failed' }),
    );
  });

  it('reports a failing loader as toolkit_load_failed, and tries again next time', async () => {
    let attempt = 0;
    const registry = new ToolRegistry([
      defineToolkit({
        name: 'kit',
        load: () => {
          attempt++;
          if (attempt === 1) throw new Error('disk on fire');
          return [tool('kit.a')];
        },
      }),
    ]);
    expect(() => registry.get('kit.a')).toThrow('The toolkit "kit" failed to load: disk on fire');
    expect(registry.get('kit.a')?.name).toBe('kit.a');
    const failing = new ToolRegistry([
      defineToolkit({ name: 'kit', load: async () => Promise.reject(new Error('offline')) }),
    ]);
    await expect(failing.resolve('kit.a')).rejects.toMatchObject({ code: 'toolkit_load_failed' });
  });

  it('unregisters a toolkit with the tools it loaded', () => {
    const registry = new ToolRegistry([
      defineToolkit({ name: 'math', load: () => [tool('math.add')] }),
    ]);
    registry.get('math.add');
    expect(registry.unregisterToolkit('math')).toBe(true);
    expect(registry.get('math.add')).toBeUndefined();
    expect(registry.unregisterToolkit('math')).toBe(false);
  });

  it('rejects toolkit names that are empty or dotted', () => {
    expect(() => defineToolkit({ name: 'a.b', load: () => [] })).toThrow(/without dots/);
    expect(() => defineToolkit({ name: 'x' } as never)).toThrow(/load/);
  });
});
