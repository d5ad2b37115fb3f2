import type { ServerResponse } from 'node:http';
import type { DeliveredMessage } from '@mtpx/mpl';
import { MessageHub } from '../routes/message-hub';
import { isMplMessage, type PrimaryToWorker, type WorkerToPrimary } from './cluster-messages';

/** The IPC channel to the primary (`process` in a cluster worker). */
export interface PrimaryChannel {
  send(message: WorkerToPrimary): void;
  on(event: 'message', listener: (message: unknown) => void): void;
  readonly connected: boolean;
}

/**
 * The `GET /messages` hub of one worker of `mpl serve --workers N`: its own subscribers
 * get every message any worker accepts. While some other worker has a subscriber, messages
 * this worker accepts are sent to the primary, which relays them to the workers with
 * subscribers; while none has, publishing costs what it does in one process.
 *
 * A subscription starts (its `ready` event is sent) only once every worker relays, so a
 * subscriber sees every call answered after its `ready`, whichever worker answered it.
 * `size` counts the subscribers of every worker (what `/metrics` reports).
 * @internal
 */
export class ClusterMessageHub extends MessageHub {
  readonly #primary: PrimaryChannel;
  /** This worker's subscriptions, started or waiting for `mpl-hub-ready`. */
  #local = 0;
  /** The other workers' subscribers, as the primary last said. */
  #remote = 0;
  #nextSync = 0;
  readonly #waiting = new Map<number, () => void>();

  constructor(primary: PrimaryChannel) {
    super();
    this.#primary = primary;
    primary.on('message', (message) => {
      if (isMplMessage<PrimaryToWorker>(message)) this.#receive(message);
    });
    // Hello: the primary answers with the other workers' subscribers, now that we listen.
    this.#send({ type: 'mpl-hub-subscribers', count: 0 });
  }

  override get size(): number {
    return super.size + this.#remote;
  }

  override subscribe(response: ServerResponse, stypes: string[]): void {
    if (!this.#primary.connected) {
      super.subscribe(response, stypes);
      return;
    }
    this.#local += 1;
    let closed = false;
    response.once('close', () => {
      closed = true;
      this.#local -= 1;
      this.#send({ type: 'mpl-hub-subscribers', count: this.#local });
    });
    const sync = ++this.#nextSync;
    this.#waiting.set(sync, () => {
      if (!closed) super.subscribe(response, stypes);
    });
    this.#send({ type: 'mpl-hub-subscribers', count: this.#local, sync });
  }

  override publish(message: DeliveredMessage): void {
    super.publish(message);
    if (this.#remote > 0) this.#send({ type: 'mpl-hub-message', message });
  }

  override close(): void {
    super.close();
    // Subscriptions still waiting for the primary will not start.
    this.#waiting.clear();
  }

  #receive(message: PrimaryToWorker): void {
    switch (message.type) {
      case 'mpl-hub-remote':
        this.#remote = message.count;
        if (message.sync !== undefined) this.#send({ type: 'mpl-hub-synced', sync: message.sync });
        return;
      case 'mpl-hub-ready': {
        const start = this.#waiting.get(message.sync);
        this.#waiting.delete(message.sync);
        start?.();
        return;
      }
      case 'mpl-hub-relay':
        super.publish(message.message);
        return;
    }
  }

  #send(message: WorkerToPrimary): void {
    if (!this.#primary.connected) return;
    try {
      this.#primary.send(message);
    } catch {
      // The primary is gone: this worker is shutting down.
    }
  }
}
