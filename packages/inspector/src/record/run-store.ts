import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { safeParseJson } from '@mtpx/protocol';
import { InspectorError } from '../inspector-error';
import { buildRunView, type RunView } from '../view/run-model';
import { type RunSummary, summarizeRun } from '../view/run-summary';
import type { RecordedEvent, RunRecordHeader } from './recorded-event';
import { RUNS_FOLDER, runFilePath } from './run-files';

/** A run read back from its file. */
export interface RecordedRun {
  runId: string;
  header?: RunRecordHeader;
  events: RecordedEvent[];
  /**
   * Lines that were not whole JSON objects: at most the last one, when the process died
   * while writing it (`torn`), or lines someone else wrote into the file.
   */
  skippedLines: number;
  view: RunView;
  summary: RunSummary;
}

/**
 * Parses a run file's text: the header, then one event a line; a torn last line is skipped.
 *
 * @internal
 */
export function parseRunText(
  text: string,
  fallbackRunId: string,
): Omit<RecordedRun, 'view' | 'summary'> {
  const events: RecordedEvent[] = [];
  let header: RunRecordHeader | undefined;
  let skippedLines = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const parsed = safeParseJson(line);
    const value = parsed.ok ? (parsed.value as unknown) : undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      skippedLines += 1;
      continue;
    }
    const object = value as Record<string, unknown>;
    if (object.$record === 'mtpx-run') {
      header ??= object as unknown as RunRecordHeader;
      continue;
    }
    if (typeof object.type !== 'string') {
      skippedLines += 1;
      continue;
    }
    events.push(object as RecordedEvent);
  }
  const runId = header?.runId ?? fallbackRunId;
  return { runId, ...(header === undefined ? {} : { header }), events, skippedLines };
}

function withView(parsed: Omit<RecordedRun, 'view' | 'summary'>): RecordedRun {
  const view = buildRunView(parsed.runId, parsed.events);
  const facts: { startedAt?: string; eventCount: number } = { eventCount: parsed.events.length };
  if (parsed.header?.startedAt !== undefined) facts.startedAt = parsed.header.startedAt;
  return { ...parsed, view, summary: summarizeRun(view, facts) };
}

/**
 * Reads one run of a data folder, whole or partial.
 *
 * @throws {InspectorError} `run_not_found` when the folder holds no such run.
 */
export async function readRun(dir: string, runId: string): Promise<RecordedRun> {
  let text: string;
  try {
    text = await readFile(runFilePath(dir, runId), 'utf8');
  } catch (error) {
    throw new InspectorError({
      code: 'run_not_found',
      message: `No run ${JSON.stringify(runId)} in ${dir}.`,
      cause: error,
    });
  }
  return withView(parseRunText(text, runId));
}

/** Every run of a data folder, newest first (by the file's last change). */
export async function listRuns(dir: string): Promise<RunSummary[]> {
  const folder = join(dir, RUNS_FOLDER);
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const runs = await Promise.all(
    names.map(async (name) => {
      const path = join(folder, name);
      try {
        const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
        return {
          run: withView(parseRunText(text, name.replace(/\.jsonl$/, ''))),
          changed: info.mtimeMs,
        };
      } catch {
        return undefined;
      }
    }),
  );
  return runs
    .filter((entry): entry is { run: RecordedRun; changed: number } => entry !== undefined)
    .sort((a, b) => b.changed - a.changed)
    .map((entry) => entry.run.summary);
}
