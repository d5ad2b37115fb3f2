import type { Worker } from 'node:cluster';
import type { PrimaryToWorker, WorkerToPrimary } from './cluster-messages';

/**
 * The primary's side of the cluster's `GET /messages`: it knows how many subscribers each
 * worker has, tells every worker how many the others have (so a worker relays only while
 * that is above 0), and passes each relayed message to the workers with subscribers.
 * @internal
 */
export class MessageRelay {
  /**
   * The workers, and whether their hub has said hello (its first `mpl-hub-subscribers`): only
   * then can it hear the primary, so only then is it told and waited for.
   */
  readonly #workers = new Map<number, { worker: Worker; subscribers: number; joined: boolean }>();
  /** Subscriptions (by the primary's own sync number) waiting for workers to say they relay. */
  readonly #syncs = new Map<number, { requester: Worker; sync: number; pending: Set<number> }>();
  #nextSync = 0;

  /** A new worker: it is told how many subscribers the others have once its hub says hello. */
  add(worker: Worker): void {
    this.#workers.set(worker.id, { worker, subscribers: 0, joined: false });
  }

  /** A worker that exited: its subscribers are gone, and nothing waits for it. */
  remove(worker: Worker): void {
    if (!this.#workers.delete(worker.id)) return;
    for (const [key, waiting] of this.#syncs) {
      if (waiting.requester.id === worker.id) this.#syncs.delete(key);
      else if (waiting.pending.delete(worker.id)) this.#settle(key);
    }
    this.#broadcastCounts();
  }

  /** Handles a worker's hub message. */
  receive(worker: Worker, message: WorkerToPrimary): void {
    switch (message.type) {
      case 'mpl-hub-subscribers': {
        const known = this.#workers.get(worker.id);
        if (!known) return;
        known.subscribers = message.count;
        known.joined = true;
        if (message.sync === undefined) {
          this.#broadcastCounts();
          return;
        }
        // A subscription waits until every other worker has heard that it must relay.
        const key = ++this.#nextSync;
        const pending = new Set<number>();
        for (const [id, other] of this.#workers) {
          if (!other.joined) continue;
          const count = this.#total(id);
          if (id === worker.id) this.#sendTo(other.worker, { type: 'mpl-hub-remote', count });
          else {
            pending.add(id);
            this.#sendTo(other.worker, { type: 'mpl-hub-remote', count, sync: key });
          }
        }
        this.#syncs.set(key, { requester: worker, sync: message.sync, pending });
        this.#settle(key);
        return;
      }
      case 'mpl-hub-synced': {
        if (this.#syncs.get(message.sync)?.pending.delete(worker.id)) this.#settle(message.sync);
        return;
      }
      case 'mpl-hub-message':
        for (const [id, other] of this.#workers)
          if (id !== worker.id && other.subscribers > 0)
            this.#sendTo(other.worker, { type: 'mpl-hub-relay', message: message.message });
        return;
    }
  }

  #settle(key: number): void {
    const waiting = this.#syncs.get(key);
    if (!waiting || waiting.pending.size > 0) return;
    this.#syncs.delete(key);
    this.#sendTo(waiting.requester, { type: 'mpl-hub-ready', sync: waiting.sync });
  }

  /** Tells every worker that said hello how many subscribers the others have. */
  #broadcastCounts(): void {
    for (const [id, other] of this.#workers)
      if (other.joined)
        this.#sendTo(other.worker, { type: 'mpl-hub-remote', count: this.#total(id) });
  }

  /** The subscribers of every worker but `except`. */
  #total(except?: number): number {
    let total = 0;
    for (const [id, other] of this.#workers) if (id !== except) total += other.subscribers;
    return total;
  }

  #sendTo(worker: Worker, message: PrimaryToWorker): void {
    if (!worker.isConnected()) return;
    try {
      // With a callback, a worker that died meanwhile (EPIPE) is an answer, not an 'error'
      // event that would end the primary: its 'exit' removes it.
      worker.send(message, undefined, () => {});
    } catch {
      // It is exiting; its 'exit' removes it.
    }
  }
}
