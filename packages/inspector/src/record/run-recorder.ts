import { close, closeSync, fsync, fsyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RunViewEvent } from '@mtpx/agent/run-view';
import { InspectorError } from '../inspector-error';
import { eventLine } from './event-json';
import { RECORD_VERSION, type RunRecordHeader } from './recorded-event';
import { INDEX_FILE, RUNS_FOLDER, runFileName, runFilePath } from './run-files';

/** Options of {@link recordRuns}. */
export interface RecordRunsOptions {
  /** The data folder (made when missing): `runs/<runId>.jsonl` and `index.jsonl` inside. */
  dir: string;
  /**
   * When writes reach the disk: `'run'` (default) writes every batch of events at once
   * and `fsync`s when a run ends; `'batch'` also `fsync`s each batch — slower, for runs
   * that must survive a power loss mid-run.
   */
  sync?: 'run' | 'batch';
}

/**
 * Any event a recorder accepts: the agent's, the executor's, or one it does not know (what
 * the agent's run view folds).
 */
export type RecordableEvent = RunViewEvent;

/**
 * An `onEvent` handler that records runs, with `flush()` and `close()`. The handler only
 * queues the event (it costs the run next to nothing); the queue is serialised and
 * written, append-only, on the next turn of the event loop — so an event object must not
 * be changed after it was emitted (the agent and executor never do).
 */
export interface RunRecorder {
  (event: RecordableEvent): void;
  /** The data folder. */
  readonly dir: string;
  /**
   * Writes what is buffered now (to the operating system: it survives the process dying);
   * rejects with the first write failure, if any.
   */
  flush(): Promise<void>;
  /**
   * Flushes, waits until every ended run is on disk (`fsync`), and `fsync`s and closes the
   * files of runs still going. The recorder keeps working after it.
   */
  close(): Promise<void>;
}

interface OpenRun {
  runId: string;
  fd: number | undefined;
  /** Events not written yet (serialised when written), and the header line. */
  lines: Array<string | RecordableEvent>;
  /** Ends with the run (`run-finished`, `-cancelled`, `-failed`) or its plan. */
  agentRun: boolean;
}

const endTypes = new Set(['run-finished', 'run-cancelled', 'run-failed']);

/**
 * Records every event of every run into `dir`, durably and append-only: one JSON Lines
 * file per run (a header line, then one event a line) and an index line when a run
 * starts and ends. A process that dies mid-run leaves a readable partial run: whole lines
 * up to the last batch written. Never throws into a run.
 *
 * @example
 * ```ts source="./run-recorder.examples.ts#recordRuns"
 * const recorder = recordRuns({ dir: '.mtpx/runs' });
 * const agent = createAgent({ provider, tools, onEvent: recorder });
 * await agent.run('What is 15 + (4 × (18 − 6)) / 3?');
 * await recorder.close();
 * // then: npx mtpx-inspector serve --data .mtpx/runs
 * ```
 */
export function recordRuns(options: RecordRunsOptions): RunRecorder {
  if (typeof options?.dir !== 'string' || options.dir === '')
    throw new InspectorError({
      code: 'invalid_option',
      message: 'recordRuns needs `dir`: the data folder to write runs into.',
    });
  const { dir } = options;
  const syncEachBatch = options.sync === 'batch';
  const runs = new Map<string, OpenRun>();
  const pending = new Set<OpenRun>();
  let indexLines: string[] = [];
  let indexFd: number | undefined;
  let scheduled: NodeJS.Immediate | undefined;
  let failure: unknown;
  let anonymous = 0;
  let anonymousRunId: string | undefined;
  let prepared = false;

  const writeFailure = (error: unknown) =>
    new InspectorError({
      code: 'record_write_failed',
      message: `Could not write the run record in ${dir}: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });

  const prepare = () => {
    if (prepared) return;
    mkdirSync(join(dir, RUNS_FOLDER), { recursive: true });
    prepared = true;
  };

  const writeAll = (fd: number, text: string) => {
    const buffer = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < buffer.length) written += writeSync(fd, buffer, written);
  };

  const flushNow = () => {
    scheduled = undefined;
    try {
      prepare();
      for (const run of pending) {
        if (run.lines.length === 0) continue;
        run.fd ??= openSync(runFilePath(dir, run.runId), 'a');
        let text = '';
        for (const line of run.lines)
          text += typeof line === 'string' ? line : `${eventLine(line)}\n`;
        writeAll(run.fd, text);
        run.lines = [];
        if (syncEachBatch) fsyncSync(run.fd);
        if (!runs.has(run.runId) || runs.get(run.runId) !== run) {
          // The run is over: to disk and closed off the event loop (the run goes on at once).
          syncInBackground(run.fd, true);
          run.fd = undefined;
        }
      }
      pending.clear();
      if (indexLines.length > 0) {
        indexFd ??= openSync(join(dir, INDEX_FILE), 'a');
        writeAll(indexFd, indexLines.join(''));
        indexLines = [];
        if (syncEachBatch) fsyncSync(indexFd);
        else syncInBackground(indexFd, false);
      }
    } catch (error) {
      failure ??= writeFailure(error);
      pending.clear();
    }
  };

  const syncing = new Set<Promise<void>>();
  const syncInBackground = (fd: number, andClose: boolean) => {
    const done: Promise<void> = new Promise((resolve) => {
      fsync(fd, (syncError) => {
        if (syncError) failure ??= writeFailure(syncError);
        if (!andClose) return resolve();
        close(fd, () => resolve());
      });
    });
    syncing.add(done);
    void done.then(() => syncing.delete(done));
  };

  const schedule = () => {
    scheduled ??= setImmediate(flushNow);
    // A process that exits right after its run still gets the last batch written.
    if (!exitHooked) {
      process.once('exit', onExit);
      exitHooked = true;
    }
  };
  let exitHooked = false;
  const onExit = () => {
    exitHooked = false;
    if (scheduled !== undefined) clearImmediate(scheduled);
    flushNow();
  };

  const open = (runId: string, agentRun: boolean, at: number): OpenRun => {
    const run: OpenRun = { runId, fd: undefined, lines: [], agentRun };
    runs.set(runId, run);
    const header: RunRecordHeader = {
      $record: 'mtpx-run',
      version: RECORD_VERSION,
      runId,
      startedAt: new Date(Date.now() - at).toISOString(),
    };
    run.lines.push(`${JSON.stringify(header)}\n`);
    indexLines.push(
      `${JSON.stringify({ event: 'started', runId, file: `${RUNS_FOLDER}/${runFileName(runId)}`, startedAt: header.startedAt })}\n`,
    );
    return run;
  };

  const recorder = ((event: RecordableEvent) => {
    try {
      if (typeof event?.type !== 'string') return;
      const at = typeof event.at === 'number' ? event.at : 0;
      let runId = typeof event.runId === 'string' ? event.runId : undefined;
      if (runId === undefined) {
        // An executor's own run without an id: one record per plan.
        if (event.type === 'plan-started' || anonymousRunId === undefined) {
          anonymous += 1;
          anonymousRunId = `plan_${process.pid}_${Date.now().toString(36)}_${anonymous}`;
        }
        runId = anonymousRunId;
        if (event.type === 'plan-finished') anonymousRunId = undefined;
      }
      let run = runs.get(runId);
      run ??= open(runId, event.type !== 'plan-started', at);
      run.lines.push(event);
      pending.add(run);
      const ends = run.agentRun ? endTypes.has(event.type) : event.type === 'plan-finished';
      if (ends) {
        runs.delete(runId);
        indexLines.push(`${JSON.stringify({ event: 'ended', runId, type: event.type, at })}\n`);
      }
      schedule();
    } catch (error) {
      failure ??= error;
    }
  }) as RunRecorder;

  Object.defineProperty(recorder, 'dir', { value: dir, enumerable: true });
  recorder.flush = async () => {
    if (scheduled !== undefined) clearImmediate(scheduled);
    flushNow();
    if (failure !== undefined) {
      const error = failure;
      failure = undefined;
      throw error;
    }
  };
  recorder.close = async () => {
    for (const run of runs.values()) pending.add(run);
    await recorder.flush();
    await Promise.all([...syncing]);
    await recorder.flush(); // reports a failed fsync
    for (const run of runs.values()) {
      if (run.fd === undefined) continue;
      fsyncSync(run.fd);
      closeSync(run.fd);
      run.fd = undefined;
    }
    if (indexFd !== undefined) {
      closeSync(indexFd);
      indexFd = undefined;
    }
    if (exitHooked) {
      process.off('exit', onExit);
      exitHooked = false;
    }
  };
  return recorder;
}
