import type { ToolCallInput } from '@mtpx/protocol';
import { SeededRandom } from '../support/random';

/** One call of a random DAG: how long it sleeps and which earlier calls it needs. */
export interface DagNode {
  id: string;
  latencyMs: number;
  /** Indexes of earlier nodes it references. */
  dependencies: number[];
}

/**
 * The generator the issue describes (and Python MTPX was measured on): `size` calls, each
 * referencing 0–3 earlier calls (the count uniform over 0, 1, 2, 3 — fewer when fewer
 * exist — and the calls drawn uniformly without repetition) and sleeping a latency drawn
 * uniformly from 1–20 ms.
 */
export function randomDag(size: number, seed: number): DagNode[] {
  const random = new SeededRandom(seed);
  const nodes: DagNode[] = [];
  for (let index = 0; index < size; index += 1) {
    const count = Math.min(random.integer(0, 3), index);
    nodes.push({
      id: `call_${index + 1}`,
      latencyMs: random.uniform(1, 20),
      dependencies: random.sample(index, count).sort((left, right) => left - right),
    });
  }
  return nodes;
}

/** The longest path through the DAG, adding up latencies: no schedule can finish sooner. */
export function criticalPathMs(nodes: readonly DagNode[]): number {
  const finish: number[] = [];
  let longest = 0;
  for (const node of nodes) {
    let start = 0;
    for (const dependency of node.dependencies) {
      start = Math.max(start, finish[dependency] as number);
    }
    const end = start + node.latencyMs;
    finish.push(end);
    longest = Math.max(longest, end);
  }
  return longest;
}

/** The DAG as the native tool calls of one model response, with `$ref`s to the calls it needs. */
export function dagToolCalls(nodes: readonly DagNode[], toolName: string): ToolCallInput[] {
  return nodes.map((node, index) => ({
    id: node.id,
    name: toolName,
    arguments: {
      step: index,
      ms: node.latencyMs,
      inputs: node.dependencies.map((dependency) => ({
        $ref: (nodes[dependency] as DagNode).id,
      })),
    },
  }));
}
