import type { CallNode, PlannedCall } from './call-node';

/** A held call, with how it was added (its links are made when it is released). */
interface Held {
  node: CallNode;
  planned: PlannedCall | undefined;
  /** `performance.now()` when it was held. */
  heldAt: number;
}

/**
 * The calls an execution holds (internal): whether it still holds, releases or drops,
 * which calls wait, and why a new call is held. Calls that depend on a held call are held
 * with it ("depends on held call …"), so none of them starts before the caller decides.
 */
export class HeldCalls {
  /** `holding` until `release()` or `dropHeld()`. */
  state: 'holding' | 'released' | 'dropped' = 'holding';
  /** The message that answers dropped calls. */
  dropMessage = '';
  readonly #held: Held[] = [];
  readonly #ids = new Set<string>();

  /** Why `node` is held: its own rule's reason, else the held call it depends on; or `undefined`. */
  reasonFor(node: CallNode, ownReason: string | undefined): string | undefined {
    if (ownReason !== undefined || this.#ids.size === 0) return ownReason;
    const target = node.targets.find((id) => this.#ids.has(id));
    return target === undefined ? undefined : `depends on held call ${target}`;
  }

  hold(node: CallNode, planned: PlannedCall | undefined): void {
    this.#held.push({ node, planned, heldAt: performance.now() });
    if (node.id !== '') this.#ids.add(node.id);
  }

  /** Every held call, in add order, and holds nothing any more. */
  take(): Held[] {
    const held = this.#held.splice(0);
    this.#ids.clear();
    return held;
  }
}
