import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import {
  isMissing,
  nodeFileSystem,
  ownerPid,
  processAlive,
  type SessionFileSystem,
} from './session-file-system';

/** How long a save waits for another process's lock before failing. */
const lockWaitMs = 10_000;
/** A lock older than this is left over from a process that hung or died. */
export const staleLockMs = 30_000;

type Judgement = 'missing' | 'held' | 'stale';

/**
 * The lock files of a `JsonFileSessionStore`: `<session>.json.lock`, whose text is the
 * holder's token (`<session>.json.<pid>.<random>.lock`) and the time it was taken.
 *
 * - Taken with an exclusive create that publishes the text with the file (see
 *   {@link SessionFileSystem.createExclusive}); a lock whose text is empty or unreadable
 *   still counts as held, aged by the file's modification time.
 * - Released only while it is still the holder's own (its token is compared first).
 * - Cleared when its holder's process is dead or it is older than {@link staleLockMs}: moved
 *   aside first (a rename, which only one clearer can win), judged again there, and put
 *   back if it turns out to be a live lock taken meanwhile.
 */
export class SessionFileLocks {
  readonly #fileSystem: SessionFileSystem;
  /** Without `modifiedAt`: when this process first saw each lock empty. */
  readonly #seenEmpty = new Map<string, number>();

  constructor(fileSystem: SessionFileSystem) {
    this.#fileSystem = fileSystem;
  }

  /**
   * Takes the lock of `path` (`<path>.lock`), waiting for another holder; resolves with
   * its release. `fail` turns a cause into the error to throw.
   */
  async take(path: string, fail: (cause: unknown) => Error): Promise<() => Promise<void>> {
    const shared = `${path}.lock`;
    const token = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.lock`;
    const createExclusive = this.#fileSystem.createExclusive ?? nodeFileSystem.createExclusive;
    const startedAt = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        await createExclusive(shared, `${token}\n${Date.now()}\n`);
        return () => this.#release(shared, token);
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code !== 'EEXIST') throw fail(error);
      }
      if (await this.clearIfStale(shared)) continue;
      if (Date.now() - startedAt > lockWaitMs) {
        throw fail(new Error(`${shared} is held by another writer`));
      }
      await delay(Math.min(50, 2 + attempt * 2));
    }
  }

  /** Removes the lock only while its text still names `token`. */
  async #release(shared: string, token: string): Promise<void> {
    const text = await this.#fileSystem.readFile(shared).catch(() => undefined);
    if (text?.split('\n')[0] !== token) return; // cleared as stale and taken by another
    await this.#fileSystem.remove(shared).catch(() => {});
  }

  /**
   * Clears the lock at `shared` when its holder died or it is stale; true when there is
   * no lock any more (cleared here or released meanwhile).
   */
  async clearIfStale(shared: string): Promise<boolean> {
    const judgement = await this.#judge(shared, shared);
    if (judgement !== 'stale') return judgement === 'missing';
    const aside = `${shared}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
    try {
      await this.#fileSystem.rename(shared, aside);
    } catch (error) {
      if (isMissing(error)) return true; // another clearer or the holder was first
      throw error;
    }
    // What was moved may be a fresh lock another writer took after the stale one went.
    if ((await this.#judge(aside, shared)) === 'held') {
      const text = await this.#fileSystem.readFile(aside).catch(() => '');
      const createExclusive = this.#fileSystem.createExclusive ?? nodeFileSystem.createExclusive;
      await createExclusive(shared, text).catch(() => {});
    }
    await this.#fileSystem.remove(aside).catch(() => {});
    this.#seenEmpty.delete(shared);
    return true;
  }

  async #judge(path: string, key: string): Promise<Judgement> {
    let text: string;
    try {
      text = await this.#fileSystem.readFile(path);
    } catch (error) {
      if (isMissing(error)) return 'missing';
      text = ''; // unreadable: held, aged by its time
    }
    const [holder = '', takenAt = ''] = text.split('\n');
    const pid = ownerPid(holder);
    const taken = Number(takenAt);
    if (Number.isFinite(pid) && takenAt !== '' && Number.isFinite(taken)) {
      this.#seenEmpty.delete(key);
      return !processAlive(pid) || Date.now() - taken > staleLockMs ? 'stale' : 'held';
    }
    // Empty or partial text: the holder may still be writing it.
    let since: number;
    if (this.#fileSystem.modifiedAt !== undefined) {
      try {
        since = await this.#fileSystem.modifiedAt(path);
      } catch (error) {
        if (isMissing(error)) return 'missing';
        throw error;
      }
    } else {
      since = this.#seenEmpty.get(key) ?? Date.now();
      this.#seenEmpty.set(key, since);
    }
    return Date.now() - since > staleLockMs ? 'stale' : 'held';
  }
}
