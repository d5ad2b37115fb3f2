import { type CallNode, CallState } from '../run/call-node';
import type { SlotWaiter, ToolConcurrency } from './tool-concurrency';

/**
 * The calls of one plan execution that wait for a slot of a full tool limit (internal),
 * by limit and in arrival order, and the execution's registration with the executor's
 * {@link ToolConcurrency} to be woken when a slot frees up.
 */
export class ThrottledCalls {
  readonly #slots: ToolConcurrency;
  readonly #wake: SlotWaiter;
  readonly #byLimit = new Map<string, CallNode[]>();

  constructor(slots: ToolConcurrency, wake: SlotWaiter) {
    this.#slots = slots;
    this.#wake = wake;
  }

  get size(): number {
    return this.#byLimit.size;
  }

  /**
   * Takes the slots `node` needs: `undefined` when it may start (its slots are on the
   * node), else the full limit it must wait for.
   */
  take(node: CallNode): string | undefined {
    const limits = this.#slots.limitsFor(node.toolName);
    if (limits.length === 0) return undefined;
    const full = this.#slots.tryTake(limits);
    if (full === undefined) node.slots = limits;
    return full;
  }

  /** `node` waits for a slot of `limit`. */
  add(node: CallNode, limit: string): void {
    const waiting = this.#byLimit.get(limit);
    if (waiting !== undefined) {
      waiting.push(node);
      return;
    }
    this.#byLimit.set(limit, [node]);
    this.#slots.wait(limit, this.#wake);
  }

  /** The cap of a limit. */
  capOf(limit: string): number {
    return this.#slots.capOf(limit);
  }

  /**
   * Starts waiting calls while `room()` says the execution has a slot and their limits
   * have one; a call that finds another of its limits full moves to that limit's queue
   * (`moved`).
   */
  drain(
    room: () => boolean,
    start: (node: CallNode) => void,
    moved: (node: CallNode, limit: string) => void,
  ): void {
    if (this.#byLimit.size === 0) return;
    for (const [limit, waiting] of [...this.#byLimit]) {
      while (waiting.length > 0 && room()) {
        const node = waiting[0] as CallNode;
        if (node.state !== CallState.Queued) {
          waiting.shift();
          continue;
        }
        const full = this.take(node);
        if (full === limit) break;
        waiting.shift();
        if (full === undefined) start(node);
        else moved(node, full);
      }
      if (waiting.length === 0 && this.#byLimit.get(limit) === waiting) {
        this.#byLimit.delete(limit);
        this.#slots.unwait(limit, this.#wake);
      }
    }
  }

  /** Forgets every waiting call (cancellation) and stops being woken. */
  clear(): void {
    for (const limit of this.#byLimit.keys()) this.#slots.unwait(limit, this.#wake);
    this.#byLimit.clear();
  }
}
