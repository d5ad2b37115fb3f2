import type { CallNode } from './call-node';

/**
 * The first call of a run made with each (tool, canonical arguments) pair, so identical
 * calls run once. Keyed per tool first, so no key string is built per call.
 */
export class IdenticalCalls {
  readonly #byTool = new Map<object, Map<string, CallNode>>();

  /** The earlier identical call, or `undefined` after recording `node` as the first. */
  leaderFor(tool: object, canonicalArguments: string, node: CallNode): CallNode | undefined {
    let seen = this.#byTool.get(tool);
    if (seen === undefined) {
      seen = new Map();
      this.#byTool.set(tool, seen);
    }
    const leader = seen.get(canonicalArguments);
    if (leader === undefined) seen.set(canonicalArguments, node);
    return leader;
  }
}
