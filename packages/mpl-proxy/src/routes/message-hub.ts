import type { ServerResponse } from 'node:http';
import type { DeliveredMessage } from '@mtpx/mpl';

interface Subscriber {
  response: ServerResponse;
  stypes: ReadonlySet<string> | undefined;
}

/** Streams accepted messages to subscribed sessions as Server-Sent Events (`GET /messages`). @internal */
export class MessageHub {
  readonly #subscribers = new Set<Subscriber>();
  #heartbeat: NodeJS.Timeout | undefined;

  /** How many subscribers are connected. */
  get size(): number {
    return this.#subscribers.size;
  }

  /** Subscribes a response; `stypes` limits what it receives. */
  subscribe(response: ServerResponse, stypes: string[]): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const subscriber: Subscriber = {
      response,
      stypes: stypes.length > 0 ? new Set(stypes) : undefined,
    };
    this.#subscribers.add(subscriber);
    response.on('close', () => {
      this.#subscribers.delete(subscriber);
      if (this.#subscribers.size === 0) this.#stopHeartbeat();
    });
    response.write('event: ready\ndata: {}\n\n');
    this.#startHeartbeat();
  }

  /** Sends a message to every subscriber that wants its SType. */
  publish(message: DeliveredMessage): void {
    if (this.#subscribers.size === 0) return;
    const frame = `data: ${JSON.stringify(message)}\n\n`;
    for (const subscriber of this.#subscribers)
      if (!subscriber.stypes || subscriber.stypes.has(message.stype))
        subscriber.response.write(frame);
  }

  /** Ends every stream. */
  close(): void {
    this.#stopHeartbeat();
    for (const subscriber of this.#subscribers) subscriber.response.end();
    this.#subscribers.clear();
  }

  #startHeartbeat(): void {
    if (this.#heartbeat) return;
    // A comment every 15 s keeps idle streams open through proxies that time them out.
    this.#heartbeat = setInterval(() => {
      for (const subscriber of this.#subscribers) subscriber.response.write(': keep-alive\n\n');
    }, 15_000);
    this.#heartbeat.unref();
  }

  #stopHeartbeat(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}
