import { describeValue, isJsonObject, type JsonObject } from './json';
import type { PlanIssue } from './plan-issue';
import { scanReferences } from './refs';
import type { ToolCall } from './tool-call';

/**
 * Ids of calls executed in earlier rounds: an iterable of ids, or a `Map` / plain object
 * keyed by id (such as the results of those calls).
 */
export type PlanHistory =
  | Iterable<string>
  | ReadonlyMap<string, unknown>
  | Readonly<Record<string, unknown>>;

/** Turns any accepted history form into a membership test. */
export function historyLookup(history: PlanHistory | undefined): (id: string) => boolean {
  if (history === undefined) return () => false;
  if (history instanceof Map || history instanceof Set) return (id) => history.has(id);
  if (typeof (history as Iterable<string>)[Symbol.iterator] === 'function') {
    const ids = new Set(history as Iterable<string>);
    return (id) => ids.has(id);
  }
  return (id) => Object.hasOwn(history, id);
}

/** One input call and where it came from. */
export interface CallSlot {
  value: unknown;
  /** `calls[2]`, `batches[0].calls[1]`. */
  location: string;
}

/** A call with a usable id, and the calls it depends on. */
export interface GraphNode {
  slot: number;
  id: string;
  /** The call with defaults applied; `undefined` when its shape is broken (already reported). */
  call: ToolCall | undefined;
  /** Target ids of the call's `$ref`s, in document order (repeats included). */
  refTargets: string[];
  /** In-plan dependencies (node indexes), without repeats, declared ones first. */
  dependencies: number[];
}

/** The dependency graph of a list of calls and every problem found while building it. */
export interface CallGraph {
  nodes: GraphNode[];
  byId: Map<string, number>;
  issues: PlanIssue[];
  /** For each node, the index of its strongly connected component when that component is a cycle. */
  cycleOf: Int32Array;
}

/**
 * Builds the dependency graph of `slots` in one pass over calls and references, and
 * reports shape problems, duplicate ids, missing dependencies, malformed references,
 * undeclared references (strict) and cycles. Linear in calls + references.
 */
export function buildCallGraph(
  slots: readonly CallSlot[],
  options: { history?: PlanHistory; strict?: boolean },
): CallGraph {
  const inHistory = historyLookup(options.history);
  const issues: PlanIssue[] = [];
  const nodes: GraphNode[] = [];
  const byId = new Map<string, number>();

  slots.forEach((slot, slotIndex) => {
    const node = readCall(slot, slotIndex, issues);
    if (node === undefined) return;
    const { id } = node;
    const earlier = byId.get(id);
    if (earlier !== undefined) {
      const first = slots[(nodes[earlier] as GraphNode).slot] as CallSlot;
      issues.push({
        code: 'duplicate_id',
        callIds: [id],
        location: slot.location,
        message: `Call id "${id}" is used twice (${first.location} and ${slot.location}); give every call its own id.`,
      });
      return;
    }
    if (inHistory(id)) {
      issues.push({
        code: 'duplicate_id',
        callIds: [id],
        location: slot.location,
        message: `Call id "${id}" (${slot.location}) was already used by a call in an earlier round; give this call a new id.`,
      });
      return;
    }
    byId.set(id, nodes.length);
    nodes.push(node);
  });

  for (const node of nodes) {
    const location = (slots[node.slot] as CallSlot).location;
    const declared = node.call?.depends_on ?? [];
    const refTargets = node.refTargets;
    const seen = new Set<number>();
    const add = (target: string, via: 'depends_on' | '$ref') => {
      const targetIndex = byId.get(target);
      if (targetIndex !== undefined) {
        if (!seen.has(targetIndex)) {
          seen.add(targetIndex);
          node.dependencies.push(targetIndex);
        }
        return;
      }
      if (inHistory(target)) return;
      const how = via === '$ref' ? `references {"$ref": "${target}"}` : `depends on "${target}"`;
      issues.push({
        code: 'missing_dependency',
        callIds: [node.id],
        location,
        message: `Call "${node.id}" ${how}, but no call with that id exists in this response or an earlier round.`,
      });
    };
    for (const target of declared) add(target, 'depends_on');
    for (const target of refTargets) add(target, '$ref');
    if (options.strict) {
      const declaredSet = new Set(declared);
      for (const target of new Set(refTargets)) {
        if (!declaredSet.has(target)) {
          issues.push({
            code: 'undeclared_ref',
            callIds: [node.id, target],
            location,
            message: `Call "${node.id}" references "${target}" with $ref but does not list it in depends_on (required in strict mode).`,
          });
        }
      }
    }
  }

  const cycleOf = reportCycles(nodes, issues);
  return { nodes, byId, issues, cycleOf };
}

/** What {@link inspectToolCall} found in one untrusted tool call. @internal */
export interface ToolCallInspection {
  /** The call's id, when it is a non-empty string. */
  id: string | undefined;
  /** The call's tool name, when it is a non-empty string. */
  name: string | undefined;
  /** The call with defaults applied; `undefined` when its shape is broken. */
  call: ToolCall | undefined;
  /** Target ids of the call's `$ref`s, in document order (repeats included); empty when broken. */
  refTargets: string[];
  /** Every shape problem, with the same codes and messages plan validation uses; `[]` when usable. */
  issues: PlanIssue[];
}

/**
 * Checks the shape of ONE untrusted tool call — a non-empty id and name, object
 * `arguments`, a `depends_on` list, well-formed references — exactly as plan validation
 * does, and collects its `$ref` targets in the same pass. For runtimes that take calls one
 * at a time (a model's streamed response) and still want plan validation's messages.
 * Graph rules (duplicates, missing targets, cycles) need the other calls and are not checked.
 *
 * @example
 * ```ts source="./protocol.examples.ts#inspectToolCall"
 * const inspection = inspectToolCall({
 *   id: 'call_2',
 *   name: 'calculator.add',
 *   arguments: { a: { $ref: 'call_1' } },
 * });
 * inspection.refTargets; // ['call_1']
 * inspection.issues; // []
 * ```
 * @internal
 */
export function inspectToolCall(value: unknown, location = 'call'): ToolCallInspection {
  const issues: PlanIssue[] = [];
  const node = readCall({ value, location }, 0, issues);
  const name =
    isJsonObject(value) && typeof value.name === 'string' && value.name !== ''
      ? value.name
      : undefined;
  return {
    id: node?.id,
    name,
    call: node?.call,
    refTargets: node?.refTargets ?? [],
    issues,
  };
}

/** Reads one input call; reports what is wrong with its shape. */
function readCall(slot: CallSlot, slotIndex: number, issues: PlanIssue[]): GraphNode | undefined {
  const { value, location } = slot;
  if (!isJsonObject(value)) {
    issues.push({
      code: 'invalid_call',
      callIds: [],
      location,
      message: `${location} must be a tool call object, got ${describeValue(value)}.`,
    });
    return undefined;
  }
  const id = value.id;
  if (typeof id !== 'string' || id === '') {
    issues.push({
      code: 'empty_id',
      callIds: [],
      location,
      message: `${location} needs a non-empty string "id", got ${describeValue(id)}.`,
    });
    return undefined;
  }
  let valid = true;
  const problem = (code: PlanIssue['code'], message: string) => {
    valid = false;
    issues.push({ code, callIds: [id], location, message });
  };
  const name = value.name;
  if (typeof name !== 'string' || name === '') {
    problem(
      'empty_name',
      `Call "${id}" needs a non-empty string "name" (the tool to call), got ${describeValue(name)}.`,
    );
  }
  const rawArguments = value.arguments ?? {};
  let callArguments: JsonObject = {};
  let refTargets: string[] = [];
  if (!isJsonObject(rawArguments)) {
    const hint =
      typeof rawArguments === 'string' ? ' (send a JSON object, not JSON encoded in a string)' : '';
    problem(
      'invalid_call',
      `Call "${id}" has "arguments" that are not an object: got ${describeValue(rawArguments)}${hint}.`,
    );
  } else {
    callArguments = rawArguments;
    const scan = scanReferences(rawArguments);
    refTargets = scan.references.map((reference) => reference.$ref);
    for (const malformed of scan.malformed) {
      problem(
        'invalid_reference',
        `Call "${id}" has an invalid reference at ${malformed.location === '' ? 'the top level' : `"${malformed.location}"`} of its arguments: ${malformed.reason}.`,
      );
    }
  }
  const rawDependsOn = value.depends_on ?? [];
  let dependsOn: string[] = [];
  if (
    !Array.isArray(rawDependsOn) ||
    !rawDependsOn.every((entry) => typeof entry === 'string' && entry !== '')
  ) {
    problem(
      'invalid_call',
      `Call "${id}" has a "depends_on" that is not a list of call ids: got ${describeValue(rawDependsOn)}.`,
    );
  } else {
    dependsOn = rawDependsOn as string[];
  }
  const reasoning = value.reasoning;
  if (reasoning !== undefined && reasoning !== null && typeof reasoning !== 'string') {
    problem(
      'invalid_call',
      `Call "${id}" has a "reasoning" that is not a string: got ${describeValue(reasoning)}.`,
    );
  }
  const call: ToolCall | undefined = valid
    ? {
        id,
        name: name as string,
        arguments: callArguments,
        depends_on: dependsOn,
        ...(typeof reasoning === 'string' ? { reasoning } : {}),
      }
    : undefined;
  // A broken call (already reported) takes no part in the graph's edges.
  return { slot: slotIndex, id, call, refTargets: valid ? refTargets : [], dependencies: [] };
}

/**
 * Finds the strongly connected components (Tarjan, iterative so long chains cannot
 * overflow the stack) and reports each one that is a cycle, naming one whole loop.
 * Returns, per node, the index of its cyclic component or -1.
 */
function reportCycles(nodes: readonly GraphNode[], issues: PlanIssue[]): Int32Array {
  const count = nodes.length;
  const order = new Int32Array(count).fill(-1);
  const low = new Int32Array(count);
  const onStack = new Uint8Array(count);
  const cycleOf = new Int32Array(count).fill(-1);
  const stack: number[] = [];
  let counter = 0;
  let cycles = 0;

  for (let root = 0; root < count; root++) {
    if (order[root] !== -1) continue;
    const frames: Array<{ node: number; next: number }> = [{ node: root, next: 0 }];
    order[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { node: number; next: number };
      const successors = (nodes[frame.node] as GraphNode).dependencies;
      if (frame.next < successors.length) {
        const successor = successors[frame.next++] as number;
        if (order[successor] === -1) {
          order[successor] = low[successor] = counter++;
          stack.push(successor);
          onStack[successor] = 1;
          frames.push({ node: successor, next: 0 });
        } else if (onStack[successor]) {
          low[frame.node] = Math.min(low[frame.node] as number, order[successor] as number);
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) {
        low[parent.node] = Math.min(low[parent.node] as number, low[frame.node] as number);
      }
      if (low[frame.node] !== order[frame.node]) continue;
      const component: number[] = [];
      let member: number;
      do {
        member = stack.pop() as number;
        onStack[member] = 0;
        component.push(member);
      } while (member !== frame.node);
      const isCycle =
        component.length > 1 || (nodes[frame.node] as GraphNode).dependencies.includes(frame.node);
      if (!isCycle) continue;
      for (const inCycle of component) cycleOf[inCycle] = cycles;
      cycles++;
      const loop = findLoop(nodes, component, cycleOf);
      issues.push({
        code: 'cycle',
        callIds: loop.slice(0, -1),
        message:
          loop.length === 2
            ? `Call "${loop[0]}" depends on its own output (${loop.join(' -> ')}); a call cannot reference itself.`
            : `Calls depend on each other in a cycle: ${loop.join(' -> ')} (read "->" as "needs the output of"); no order can run them, so remove one of these references.`,
      });
    }
  }
  return cycleOf;
}

/** One concrete loop through a cyclic component, starting and ending at its earliest call. */
function findLoop(
  nodes: readonly GraphNode[],
  component: readonly number[],
  cycleOf: Int32Array,
): string[] {
  const start = component.reduce((earliest, member) => Math.min(earliest, member));
  const cycle = cycleOf[start];
  const parent = new Map<number, number>();
  const queue: number[] = [start];
  for (let head = 0; head < queue.length; head++) {
    const current = queue[head] as number;
    for (const next of (nodes[current] as GraphNode).dependencies) {
      if (cycleOf[next] !== cycle) continue;
      if (next === start) {
        const path: number[] = [];
        for (let at = current; at !== start; at = parent.get(at) as number) path.push(at);
        path.push(start);
        path.reverse(); // start -> … -> current, and current needs start: close the loop
        path.push(start);
        return path.map((index) => (nodes[index] as GraphNode).id);
      }
      if (!parent.has(next)) {
        parent.set(next, current);
        queue.push(next);
      }
    }
  }
  return [(nodes[start] as GraphNode).id, (nodes[start] as GraphNode).id];
}
