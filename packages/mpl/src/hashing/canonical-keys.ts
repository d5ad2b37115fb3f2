import { compareCodePoints, quote } from './canonical-text';

/**
 * The members of objects with one key sequence, in canonical order: `order` holds the keys
 * sorted by code point, `quoted` each as the canonical form writes it (`"key":`).
 */
export interface KeyOrder {
  readonly order: readonly string[];
  readonly quoted: readonly string[];
  /** `quoted`, each after a comma (`,"key":`). */
  readonly separated: readonly string[];
}

// Payloads of one SType repeat the same key sequences (`Object.keys` order). A trie over
// those sequences gives each its sorted keys and their quoted forms, computed once: one
// map lookup per key instead of a sort, and no new array per object. It is bounded: past
// `maxNodes` it starts again empty, so payloads with ever-new keys cost a rebuild, not memory.
interface Node {
  children: Map<string, Node> | undefined;
  keys: KeyOrder | undefined;
}

const maxNodes = 4096;
// Objects with more keys than this (maps keyed by ids, say) are sorted each time.
const maxCachedKeys = 32;
let root: Node = { children: undefined, keys: undefined };
let nodes = 0;

function orderOf(keys: readonly string[]): KeyOrder {
  const order = keys.slice();
  if (!isSorted(order)) order.sort(compareCodePoints);
  const quoted = order.map((key) => `${quote(key)}:`);
  return { order, quoted, separated: quoted.map((key) => `,${key}`) };
}

function isSorted(keys: readonly string[]): boolean {
  for (let index = 1; index < keys.length; index++)
    if (compareCodePoints(keys[index - 1] as string, keys[index] as string) > 0) return false;
  return true;
}

/**
 * The canonical order of an object's own enumerable keys (`Object.keys(record)`), and the
 * quoted form of each.
 *
 * @internal
 */
export function keyOrderOf(keys: readonly string[]): KeyOrder {
  if (keys.length > maxCachedKeys) return orderOf(keys);
  let node = root;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    let next = node.children?.get(key);
    if (next === undefined) {
      if (nodes >= maxNodes) {
        root = { children: undefined, keys: undefined };
        nodes = 0;
        return orderOf(keys);
      }
      next = { children: undefined, keys: undefined };
      node.children ??= new Map();
      node.children.set(key, next);
      nodes++;
    }
    node = next;
  }
  node.keys ??= orderOf(keys);
  return node.keys;
}
