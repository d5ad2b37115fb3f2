import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExecutorError } from '../errors';
import { createExecutor } from '../executor';
import { defineTool } from '../tools/define-tool';
import { type CachedResult, cacheKey, InMemoryResultCache, type ResultCache } from './result-cache';

const entry = (output: number): CachedResult => ({
  output,
  created_at: new Date().toISOString(),
  expires_at: new Date(Date.now() + 60_000).toISOString(),
});

describe('InMemoryResultCache', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('expires entries after their TTL', () => {
    const cache = new InMemoryResultCache();
    cache.set('k', entry(1), 10);
    vi.advanceTimersByTime(9_999);
    expect(cache.get('k')?.output).toBe(1);
    vi.advanceTimersByTime(1);
    expect(cache.get('k')).toBeUndefined();
  });

  it('keeps at most maxEntries, evicting the least recently used', () => {
    const cache = new InMemoryResultCache({ maxEntries: 2 });
    cache.set('a', entry(1), 60);
    cache.set('b', entry(2), 60);
    cache.get('a'); // a is now the most recently used
    cache.set('c', entry(3), 60);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.output).toBe(1);
    expect(cache.get('c')?.output).toBe(3);
    expect(() => new InMemoryResultCache({ maxEntries: 0 })).toThrow(ExecutorError);
  });

  it('ignores a non-positive TTL; delete and clear forget entries', () => {
    const cache = new InMemoryResultCache();
    cache.set('a', entry(1), 0);
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', entry(2), 5);
    expect(cache.delete('b')).toBe(true);
    cache.set('c', entry(3), 5);
    cache.clear();
    expect(cache.size).toBe(0);
  });
});

describe('caching in the executor', () => {
  beforeEach(() => vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00.000Z') }));
  afterEach(() => vi.useRealTimers());

  const counted = (ttl?: number) => {
    const execute = vi.fn(({ city }: { city: string }) => `sunny in ${city}`);
    const tool = defineTool({
      name: 'weather.get',
      description: 'Weather.',
      input_schema: { type: 'object', properties: { city: { type: 'string' } } },
      ...(ttl === undefined ? {} : { cache_ttl_seconds: ttl }),
      execute,
    });
    return { tool, execute };
  };

  it('reuses a result within its TTL, keyed by the resolved arguments in any key order', async () => {
    const { tool, execute } = counted(60);
    const executor = createExecutor({ tools: [tool] });
    const [first] = await executor.executeToolCalls([
      { id: 'c1', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect(first).toMatchObject({
      cached: false,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-01-01T00:01:00.000Z',
    });
    vi.advanceTimersByTime(30_000);
    const [second] = await executor.executeToolCalls([
      { id: 'c2', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect(second).toMatchObject({
      call_id: 'c2',
      output: 'sunny in Oslo',
      cached: true,
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2026-01-01T00:01:00.000Z',
    });
    expect(execute).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30_000);
    const [third] = await executor.executeToolCalls([
      { id: 'c3', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect(third?.cached).toBe(false);
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('does not cache tools without a TTL, failures, or when caching is off', async () => {
    const plain = counted();
    const executor = createExecutor({ tools: [plain.tool] });
    await executor.executeToolCalls([
      { id: 'c1', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    const [again] = await executor.executeToolCalls([
      { id: 'c2', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect(again?.cached).toBe(false);
    expect(again?.expires_at).toBeUndefined();
    expect(plain.execute).toHaveBeenCalledTimes(2);

    const off = counted(60);
    const uncached = createExecutor({ tools: [off.tool], cache: false });
    await uncached.executeToolCalls([
      { id: 'c1', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    await uncached.executeToolCalls([
      { id: 'c2', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect(off.execute).toHaveBeenCalledTimes(2);
  });

  it('runs identical calls of one run once; the copies are flagged cached', async () => {
    const { tool, execute } = counted();
    const results = await createExecutor({ tools: [tool] }).executeToolCalls([
      { id: 'c1', name: 'weather.get', arguments: { city: 'Oslo' } },
      { id: 'c2', name: 'weather.get', arguments: { city: 'Oslo' } },
      { id: 'c3', name: 'weather.get', arguments: { city: 'Rome' } },
      { id: 'c4', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect(results.map((result) => [result.call_id, result.output, result.cached])).toEqual([
      ['c1', 'sunny in Oslo', false],
      ['c2', 'sunny in Oslo', true],
      ['c3', 'sunny in Rome', false],
      ['c4', 'sunny in Oslo', true],
    ]);
    expect(execute).toHaveBeenCalledTimes(2);
    const again = counted();
    await createExecutor({ tools: [again.tool], dedupe: false }).executeToolCalls([
      { id: 'c1', name: 'weather.get', arguments: { city: 'Oslo' } },
      { id: 'c2', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect(again.execute).toHaveBeenCalledTimes(2);
  });

  it('works with an async store; a store that fails is a miss and never fails the call', async () => {
    const stored = new Map<string, CachedResult>();
    const asyncStore: ResultCache = {
      get: async (key) => stored.get(key),
      set: async (key, value) => {
        stored.set(key, value);
      },
    };
    const { tool, execute } = counted(60);
    const executor = createExecutor({ tools: [tool], cache: asyncStore });
    await executor.executeToolCalls([
      { id: 'c1', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect([...stored.keys()]).toEqual([cacheKey('weather.get', '{"city":"Oslo"}')]);
    const [hit] = await executor.executeToolCalls([
      { id: 'c2', name: 'weather.get', arguments: { city: 'Oslo' } },
    ]);
    expect(hit?.cached).toBe(true);
    expect(execute).toHaveBeenCalledTimes(1);

    const failures: string[] = [];
    const broken: ResultCache = {
      get: () => Promise.reject(new Error('redis down')),
      set: () => {
        throw new Error('redis still down');
      },
    };
    const flaky = counted(60);
    const [result] = await createExecutor({ tools: [flaky.tool], cache: broken }).executeToolCalls(
      [{ id: 'c1', name: 'weather.get', arguments: { city: 'Oslo' } }],
      {
        onEvent: (event) =>
          event.type === 'cache-failed' && failures.push(`${event.operation}: ${event.error}`),
      },
    );
    expect(result?.output).toBe('sunny in Oslo');
    expect(failures).toEqual(['get: redis down', 'set: redis still down']);
  });
});
