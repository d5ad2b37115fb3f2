import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { safeParseJson } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import { SessionFileLocks } from '../session/session-file-lock';
import { isMissing, nodeFileSystem, type SessionFileSystem } from '../session/session-file-system';
import {
  acquiredLease,
  leaseView,
  releasedLease,
  renewedLease,
  type StoredLease,
} from './lease-rules';
import {
  checkJournalVersion,
  type JournaledCall,
  type JournaledRun,
  journalFailed,
  parseJournaledCall,
  parseJournaledRun,
  type RunJournal,
  replacesJournaledResult,
} from './run-journal';
import { checkLeaseToken, type JournalWriteOptions, type RunLease } from './run-lease';

/** Options of {@link JsonFileRunJournal}. */
export interface JsonFileRunJournalOptions {
  /** Where the run files go (created when missing): one `<run>.run.json` per run. */
  directory: string;
  /** The file operations; default: Node's, with an fsync before each rename. */
  fileSystem?: SessionFileSystem;
  /** The clock leases expire by, in milliseconds (default `Date.now`). */
  now?: () => number;
}

/** Everything the journal keeps of one run, in its file. */
interface RunFile {
  run?: JournaledRun;
  calls: JournaledCall[];
  lease?: StoredLease;
}

const maxIdBytes = 100;

/** `<id>.run.json` for plain ids, else `~<hex of the UTF-8 bytes>.run.json`: never a path. */
function fileNameOf(runId: string): string {
  const bytes = Buffer.from(runId, 'utf8');
  if (typeof runId !== 'string' || runId === '' || bytes.length > maxIdBytes) {
    throw new AgentError({
      code: 'invalid_option',
      message: `A journaled run id is 1 to ${maxIdBytes} bytes of UTF-8, got ${JSON.stringify(runId)}.`,
    });
  }
  const name = /^[a-z0-9_-]+$/.test(runId) ? runId : `~${bytes.toString('hex')}`;
  return `${name}.run.json`;
}

/**
 * A {@link RunJournal} in JSON files, one per run, in a directory: a run stopped in one
 * process (its process died, or it waits for approval) is resumed by another on the same
 * machine. Each write takes a lock file beside the run's file, reads it, checks (version,
 * lease token), writes a new file, flushes it and renames it over the old one, so a crash
 * leaves the last write whole. Leases follow the same rules as every journal's.
 *
 * @example
 * ```ts source="./json-file-run-journal.examples.ts#JsonFileRunJournal"
 * const journal = new JsonFileRunJournal({ directory: '.runs' });
 * const agent = createAgent({ provider, tools, journal });
 * await agent.resume('run_1');
 * ```
 */
export class JsonFileRunJournal implements RunJournal {
  /** The directory the files live in. */
  readonly directory: string;
  readonly #fileSystem: SessionFileSystem;
  readonly #locks: SessionFileLocks;
  readonly #now: () => number;
  #made: Promise<void> | undefined;

  constructor(options: JsonFileRunJournalOptions) {
    if (typeof options?.directory !== 'string' || options.directory === '') {
      throw new AgentError({
        code: 'invalid_option',
        message: 'JsonFileRunJournal needs a `directory`.',
      });
    }
    this.directory = options.directory;
    this.#fileSystem = options.fileSystem ?? nodeFileSystem;
    this.#locks = new SessionFileLocks(this.#fileSystem);
    this.#now = options.now ?? Date.now;
  }

  async get(runId: string): Promise<JournaledRun | undefined> {
    return (await this.#read(runId)).run;
  }

  async save(run: JournaledRun, options?: JournalWriteOptions): Promise<void> {
    await this.#update(run?.run_id, (file) => {
      checkLeaseToken(run.run_id, this.#view(run.run_id, file.lease), options);
      checkJournalVersion(file.run, run);
      file.run = { ...run, version: (run.version ?? 0) + 1 };
    });
  }

  async recordCall(
    runId: string,
    call: JournaledCall,
    options?: JournalWriteOptions,
  ): Promise<void> {
    await this.#update(runId, (file) => {
      checkLeaseToken(runId, this.#view(runId, file.lease), options);
      const index = file.calls.findIndex(
        (stored) =>
          stored.call_id === call.call_id && stored.arguments_hash === call.arguments_hash,
      );
      const stored = file.calls[index];
      if (stored === undefined) file.calls.push(call);
      else if (replacesJournaledResult(stored.result)) file.calls[index] = call;
    });
  }

  async calls(runId: string): Promise<JournaledCall[]> {
    return (await this.#read(runId)).calls;
  }

  async delete(runId: string): Promise<boolean> {
    const path = this.#pathOf(runId);
    await this.#made;
    const unlock = await this.#locks.take(path, (cause) => failed('lock', runId, cause));
    try {
      const existed = (await this.#read(runId)).run !== undefined;
      await this.#fileSystem.remove(path);
      return existed;
    } catch (error) {
      throw failed('delete', runId, error);
    } finally {
      await unlock();
    }
  }

  async acquireLease(runId: string, holder: string, ttlMs: number): Promise<RunLease> {
    let lease!: StoredLease;
    const now = this.#now();
    await this.#update(runId, (file) => {
      lease = acquiredLease(runId, file.lease, holder, ttlMs, now);
      file.lease = lease;
    });
    return leaseView(runId, lease, now);
  }

  async renewLease(runId: string, token: number, ttlMs: number): Promise<RunLease> {
    let lease!: StoredLease;
    const now = this.#now();
    await this.#update(runId, (file) => {
      lease = renewedLease(runId, file.lease, token, ttlMs, now);
      file.lease = lease;
    });
    return leaseView(runId, lease, now);
  }

  async releaseLease(runId: string, token: number): Promise<void> {
    await this.#update(runId, (file) => {
      const lease = releasedLease(file.lease, token, this.#now());
      if (lease !== undefined) file.lease = lease;
    });
  }

  async getLease(runId: string): Promise<RunLease | undefined> {
    return this.#view(runId, (await this.#read(runId)).lease);
  }

  #view(runId: string, lease: StoredLease | undefined): RunLease | undefined {
    return lease === undefined ? undefined : leaseView(runId, lease, this.#now());
  }

  #pathOf(runId: string): string {
    return join(this.directory, fileNameOf(runId));
  }

  /** Reads, changes and writes a run's file under its lock (the change may throw: nothing is written). */
  async #update(runId: string, change: (file: RunFile) => void): Promise<void> {
    const path = this.#pathOf(runId);
    this.#made ??= this.#fileSystem.makeDirectory(this.directory).catch((error: unknown) => {
      this.#made = undefined;
      throw failed('make the directory of', runId, error);
    });
    await this.#made;
    const unlock = await this.#locks.take(path, (cause) => failed('lock', runId, cause));
    try {
      const file = await this.#read(runId);
      change(file);
      const temporary = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
      try {
        await this.#fileSystem.writeFileDurably(temporary, `${JSON.stringify(file)}\n`);
        await this.#fileSystem.rename(temporary, path);
      } catch (error) {
        await this.#fileSystem.remove(temporary).catch(() => {});
        throw failed('write', runId, error);
      }
    } finally {
      await unlock();
    }
  }

  async #read(runId: string): Promise<RunFile> {
    const path = this.#pathOf(runId);
    let text: string;
    try {
      text = await this.#fileSystem.readFile(path);
    } catch (error) {
      if (isMissing(error)) return { calls: [] };
      throw failed('read', runId, error);
    }
    const where = `The journal file of run "${runId}" (${path})`;
    const parsed = safeParseJson(text);
    if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) {
      throw journalFailed(`${where} is not a JSON object.`);
    }
    const data = parsed.value as { run?: unknown; calls?: unknown; lease?: unknown };
    const calls = Array.isArray(data.calls) ? data.calls : [];
    const file: RunFile = {
      calls: calls.map((call, index) => parseJournaledCall(call, `${where}, call ${index}`)),
    };
    if (data.run !== undefined) file.run = parseJournaledRun(data.run, where);
    const lease = data.lease as Partial<StoredLease> | undefined;
    if (
      lease !== undefined &&
      typeof lease.holder === 'string' &&
      typeof lease.token === 'number' &&
      typeof lease.expiresAtMs === 'number'
    ) {
      file.lease = lease as StoredLease;
    }
    return file;
  }
}

function failed(action: string, runId: string, cause: unknown): AgentError {
  if (AgentError.isInstance(cause)) return cause;
  const reason = cause instanceof Error ? cause.message : String(cause);
  return journalFailed(`Could not ${action} run "${runId}" (JSON-file journal): ${reason}`, cause);
}
