import { describe, expect, it } from 'vitest';
import { criticalPathMs, dagToolCalls, randomDag } from './random-dag';

describe('randomDag', () => {
  it('gives the same DAG for the same seed and another for another seed', () => {
    expect(randomDag(50, 7)).toEqual(randomDag(50, 7));
    expect(randomDag(50, 7)).not.toEqual(randomDag(50, 8));
  });

  it('references 0–3 distinct earlier calls and sleeps 1–20 ms', () => {
    const nodes = randomDag(500, 1);
    const referenceCounts = new Set<number>();
    nodes.forEach((node, index) => {
      expect(node.latencyMs).toBeGreaterThanOrEqual(1);
      expect(node.latencyMs).toBeLessThan(20);
      expect(node.dependencies.length).toBeLessThanOrEqual(Math.min(3, index));
      expect(new Set(node.dependencies).size).toBe(node.dependencies.length);
      for (const dependency of node.dependencies) expect(dependency).toBeLessThan(index);
      referenceCounts.add(node.dependencies.length);
    });
    expect([...referenceCounts].sort()).toEqual([0, 1, 2, 3]);
  });
});

describe('criticalPathMs', () => {
  it('adds up the latencies of the longest path', () => {
    const nodes = [
      { id: 'call_1', latencyMs: 5, dependencies: [] },
      { id: 'call_2', latencyMs: 1, dependencies: [] },
      { id: 'call_3', latencyMs: 2, dependencies: [0, 1] },
      { id: 'call_4', latencyMs: 10, dependencies: [1] },
    ];
    // call_1 → call_3 is 7; call_2 → call_4 is 11.
    expect(criticalPathMs(nodes)).toBe(11);
  });
});

describe('dagToolCalls', () => {
  it('writes each dependency as a $ref to the earlier call', () => {
    const calls = dagToolCalls(
      [
        { id: 'call_1', latencyMs: 3, dependencies: [] },
        { id: 'call_2', latencyMs: 4, dependencies: [0] },
      ],
      'dag.sleep',
    );
    expect(calls[1]).toEqual({
      id: 'call_2',
      name: 'dag.sleep',
      arguments: { step: 1, ms: 4, inputs: [{ $ref: 'call_1' }] },
    });
  });
});
