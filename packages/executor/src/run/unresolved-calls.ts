import { type CallNode, CallState } from './call-node';
import { missingDependencyMessage } from './execution-messages';

/**
 * At the end of a run, the calls still waiting for ids that never arrived, each with the
 * message naming every missing id.
 */
export function missingTargets(
  waitingFor: ReadonlyMap<string, readonly CallNode[]>,
): Map<CallNode, string> {
  const missing = new Map<CallNode, string>();
  for (const [target, waiters] of waitingFor) {
    for (const waiter of waiters) {
      if (waiter.state === CallState.Done) continue;
      const message = missingDependencyMessage(waiter, target);
      const earlier = missing.get(waiter);
      missing.set(waiter, earlier === undefined ? message : `${earlier} ${message}`);
    }
  }
  return missing;
}

/**
 * The cycles among calls that are still waiting once a run has ended: the strongly
 * connected components (Tarjan, iterative) of the "needs" graph restricted to waiting
 * calls, each with one concrete loop through it, starting and ending at its earliest call.
 * Linear in waiting calls + their edges.
 */
export function findWaitingCycles(
  waiting: readonly CallNode[],
  byId: ReadonlyMap<string, CallNode>,
): Array<{ members: CallNode[]; loop: string[] }> {
  // Most ends (every plan whose calls need only earlier ones) have no loop: say so in one
  // pass, without building the search's maps.
  if (!waitsForward(waiting, byId)) return [];
  const needs = (node: CallNode): CallNode[] => {
    const found: CallNode[] = [];
    for (const target of node.targets) {
      const other = byId.get(target);
      if (other !== undefined && other.state === CallState.Waiting) found.push(other);
    }
    return found;
  };
  const order = new Map<CallNode, number>();
  const low = new Map<CallNode, number>();
  const onStack = new Set<CallNode>();
  const stack: CallNode[] = [];
  const cycles: Array<{ members: CallNode[]; loop: string[] }> = [];
  let counter = 0;

  for (const root of waiting) {
    if (order.has(root)) continue;
    type Frame = { node: CallNode; edges: CallNode[]; next: number };
    const frames: Frame[] = [{ node: root, edges: needs(root), next: 0 }];
    order.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as Frame;
      if (frame.next < frame.edges.length) {
        const next = frame.edges[frame.next++] as CallNode;
        if (!order.has(next)) {
          order.set(next, counter);
          low.set(next, counter++);
          stack.push(next);
          onStack.add(next);
          frames.push({ node: next, edges: needs(next), next: 0 });
        } else if (onStack.has(next)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, order.get(next) as number));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) {
        low.set(
          parent.node,
          Math.min(low.get(parent.node) as number, low.get(frame.node) as number),
        );
      }
      if (low.get(frame.node) !== order.get(frame.node)) continue;
      const members: CallNode[] = [];
      let member: CallNode;
      do {
        member = stack.pop() as CallNode;
        onStack.delete(member);
        members.push(member);
      } while (member !== frame.node);
      if (members.length > 1) cycles.push({ members, loop: loopThrough(members, needs) });
    }
  }
  return cycles;
}

/**
 * Whether a waiting call needs a later waiting call (by index). Following "needs" around a
 * loop of two or more calls, the index cannot fall at every step: without such a call
 * there is no loop.
 */
function waitsForward(waiting: readonly CallNode[], byId: ReadonlyMap<string, CallNode>): boolean {
  for (const node of waiting) {
    for (const target of node.targets) {
      const other = byId.get(target);
      if (other !== undefined && other.state === CallState.Waiting && other.index > node.index) {
        return true;
      }
    }
  }
  return false;
}

/** A shortest loop from the component's earliest call back to itself, following "needs". */
function loopThrough(
  members: readonly CallNode[],
  needs: (node: CallNode) => CallNode[],
): string[] {
  const inComponent = new Set(members);
  const start = members.reduce((earliest, node) => (node.index < earliest.index ? node : earliest));
  const parent = new Map<CallNode, CallNode>();
  const queue: CallNode[] = [start];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as CallNode;
    for (const next of needs(current)) {
      if (!inComponent.has(next)) continue;
      if (next === start) {
        const path: string[] = [];
        for (let at = current; at !== start; at = parent.get(at) as CallNode) path.push(at.id);
        path.push(start.id);
        path.reverse();
        path.push(start.id);
        return path;
      }
      if (!parent.has(next)) {
        parent.set(next, current);
        queue.push(next);
      }
    }
  }
  return [start.id, start.id];
}
