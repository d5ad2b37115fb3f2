import { ExecutorError } from '../errors';
import { toolkitPrefix } from '../tools/toolkit';

/**
 * Caps on calls in flight per tool or per toolkit, across every plan execution of one
 * executor: `{ 'browser.*': 2, 'db.write': 1 }`. A call counts against its tool's exact
 * cap and its toolkit's (`prefix.*`) cap, when set.
 */
export type ToolConcurrencyLimits = Readonly<Record<string, number>>;

/** Woken when a slot of a limit it waits for frees up. */
export type SlotWaiter = () => void;

/**
 * The executor-wide counters behind {@link ToolConcurrencyLimits} (internal): which limits
 * a tool counts against, taking and giving back slots, and waking the executions that
 * wait for one. A capped call waits without a global concurrency slot, so calls of other
 * tools run meanwhile.
 */
export class ToolConcurrency {
  readonly #caps: ReadonlyMap<string, number>;
  readonly #inFlight = new Map<string, number>();
  readonly #waiters = new Map<string, Set<SlotWaiter>>();
  readonly #limitsOf = new Map<string, readonly string[]>();

  constructor(limits: ToolConcurrencyLimits) {
    const caps = new Map<string, number>();
    for (const [name, cap] of Object.entries(limits)) {
      if (!(Number.isInteger(cap) && cap >= 1)) {
        throw new ExecutorError({
          code: 'invalid_option',
          message: `toolConcurrency["${name}"] must be a positive integer, got ${String(cap)}.`,
        });
      }
      if (name === '' || name === '*' || (name.includes('*') && !/^[^*]+\.\*$/.test(name))) {
        throw new ExecutorError({
          code: 'invalid_option',
          message: `toolConcurrency keys are tool names ("db.write") or toolkits ("browser.*"), got ${JSON.stringify(name)}.`,
        });
      }
      caps.set(name, cap);
    }
    this.#caps = caps;
  }

  /** The limits `toolName` counts against (exact name, then toolkit); empty when none. */
  limitsFor(toolName: string): readonly string[] {
    let limits = this.#limitsOf.get(toolName);
    if (limits !== undefined) return limits;
    const found: string[] = [];
    if (this.#caps.has(toolName)) found.push(toolName);
    const prefix = toolkitPrefix(toolName);
    if (prefix !== undefined && this.#caps.has(`${prefix}.*`)) found.push(`${prefix}.*`);
    limits = found;
    if (this.#limitsOf.size < 10_000) this.#limitsOf.set(toolName, limits);
    return limits;
  }

  /** The cap of a limit. */
  capOf(limit: string): number {
    return this.#caps.get(limit) ?? Number.POSITIVE_INFINITY;
  }

  /** Calls of a limit in flight now. */
  inFlight(limit: string): number {
    return this.#inFlight.get(limit) ?? 0;
  }

  /** Takes a slot of every limit, or none: `undefined` on success, else the full limit. */
  tryTake(limits: readonly string[]): string | undefined {
    for (const limit of limits) {
      if (this.inFlight(limit) >= this.capOf(limit)) return limit;
    }
    for (const limit of limits) this.#inFlight.set(limit, this.inFlight(limit) + 1);
    return undefined;
  }

  /** Gives the slots back and wakes who waits for them. */
  give(limits: readonly string[]): void {
    for (const limit of limits) {
      const left = this.inFlight(limit) - 1;
      if (left <= 0) this.#inFlight.delete(limit);
      else this.#inFlight.set(limit, left);
    }
    for (const limit of limits) {
      const waiters = this.#waiters.get(limit);
      if (waiters === undefined) continue;
      for (const waiter of [...waiters]) waiter();
    }
  }

  /** `waiter` is woken each time a slot of `limit` frees up, until {@link unwait}. */
  wait(limit: string, waiter: SlotWaiter): void {
    let waiters = this.#waiters.get(limit);
    if (waiters === undefined) {
      waiters = new Set();
      this.#waiters.set(limit, waiters);
    }
    waiters.add(waiter);
  }

  unwait(limit: string, waiter: SlotWaiter): void {
    const waiters = this.#waiters.get(limit);
    if (waiters === undefined) return;
    waiters.delete(waiter);
    if (waiters.size === 0) this.#waiters.delete(limit);
  }
}
