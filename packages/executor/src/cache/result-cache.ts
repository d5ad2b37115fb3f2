import type { JsonValue, MediaLists } from '@mtpx/protocol';
import { ExecutorError } from '../errors';

/** A successful result as a cache keeps it. */
export interface CachedResult extends MediaLists {
  /** The tool's output (a ToolOutput's `content`). */
  output: JsonValue;
  /** When the result was made (ISO 8601). */
  created_at: string;
  /** When the cache stops reusing it (ISO 8601). */
  expires_at: string;
}

/**
 * Where results of tools with `cache_ttl_seconds` are kept. Keys are the tool name plus
 * the canonical JSON of the resolved arguments. Either method may be async (a Redis or
 * SQLite store); a store that throws is treated as a miss and never fails a call.
 */
export interface ResultCache {
  /** The entry for `key`, or `undefined` when there is none or it has expired. */
  get(key: string): CachedResult | undefined | Promise<CachedResult | undefined>;
  /** Keeps `value` under `key` for `ttlSeconds`. */
  set(key: string, value: CachedResult, ttlSeconds: number): void | Promise<void>;
}

/** Options of {@link InMemoryResultCache}. */
export interface InMemoryResultCacheOptions {
  /** The most entries kept; the least recently used goes first. Default 1,000. */
  maxEntries?: number;
}

interface Entry {
  value: CachedResult;
  expiresAt: number;
}

/**
 * The default {@link ResultCache}: in memory, bounded (least recently used entries are
 * evicted), expiring entries by their TTL against `Date.now()`.
 *
 * @example
 * ```ts source="./result-cache.examples.ts#InMemoryResultCache"
 * const executor = createExecutor({
 *   tools,
 *   cache: new InMemoryResultCache({ maxEntries: 10_000 }),
 * });
 * ```
 */
export class InMemoryResultCache implements ResultCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;

  constructor({ maxEntries = 1000 }: InMemoryResultCacheOptions = {}) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new ExecutorError({
        code: 'invalid_option',
        message: `InMemoryResultCache: maxEntries must be a positive integer, got ${String(maxEntries)}.`,
      });
    }
    this.#maxEntries = maxEntries;
  }

  get(key: string): CachedResult | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= Date.now()) return undefined;
    this.#entries.set(key, entry); // most recently used now
    return entry.value;
  }

  set(key: string, value: CachedResult, ttlSeconds: number): void {
    if (!(ttlSeconds > 0)) return;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: Date.now() + ttlSeconds * 1000 });
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  /** Forgets one entry. */
  delete(key: string): boolean {
    return this.#entries.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.#entries.clear();
  }

  /** How many entries are held (expired ones included until they are read or evicted). */
  get size(): number {
    return this.#entries.size;
  }
}

/**
 * The cache key of a call: tool name, a NUL, then the canonical JSON of its arguments.
 *
 * @internal
 */
export function cacheKey(toolName: string, canonicalArguments: string): string {
  return `${toolName}\u0000${canonicalArguments}`;
}
