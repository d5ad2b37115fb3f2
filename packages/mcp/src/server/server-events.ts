/** A change the server tells its clients about. */
export type McpServerEvent =
  | { kind: 'tools_list_changed' }
  | { kind: 'prompts_list_changed' }
  | { kind: 'resources_list_changed' }
  | { kind: 'resource_updated'; uri: string };

/** Tells connected clients that something changed, in whichever era each speaks. */
export interface McpServerNotifier {
  /** The tool list changed (`notifications/tools/list_changed`). */
  toolsChanged(): void;
  /** The prompt list changed (`notifications/prompts/list_changed`). */
  promptsChanged(): void;
  /** The resource or template list changed (`notifications/resources/list_changed`). */
  resourcesChanged(): void;
  /** A resource's contents changed: clients subscribed to `uri` get `notifications/resources/updated`. */
  resourceUpdated(uri: string): void;
}

/**
 * The server's change events, fanned out to every live connection: 2025-era sessions
 * (stdio, HTTP) register a listener each; the HTTP handler forwards them to its
 * 2026-07-28 `subscriptions/listen` streams.
 */
export class ServerEvents implements McpServerNotifier {
  readonly #listeners = new Set<(event: McpServerEvent) => void>();
  readonly #onError: ((error: Error) => void) | undefined;

  constructor(onError?: (error: Error) => void) {
    this.#onError = onError;
  }

  /** Adds a listener; returns the function that removes it. */
  listen(listener: (event: McpServerEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The number of live listeners (connections). */
  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Delivers `event` to every listener; a throwing listener is reported, the rest still hear it. */
  publish(event: McpServerEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#onError?.(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  toolsChanged(): void {
    this.publish({ kind: 'tools_list_changed' });
  }

  promptsChanged(): void {
    this.publish({ kind: 'prompts_list_changed' });
  }

  resourcesChanged(): void {
    this.publish({ kind: 'resources_list_changed' });
  }

  resourceUpdated(uri: string): void {
    this.publish({ kind: 'resource_updated', uri });
  }
}
