import { resolve } from 'node:path';
import { DEFAULT_PORT, inspectorRunUrl, type RunRecorder, recordRuns } from '@mtpx/inspector';
import type { Terminal } from './terminal';

/** `--record DIR` of an app: the recorder to pass as the agent's `onEvent`, and what to say after. */
export interface RunRecording {
  /** The data folder, absolute. */
  dir: string;
  recorder: RunRecorder;
  /** Waits until the record is on disk, then prints where it is and the Inspector link. */
  finish(terminal: Terminal, runId: string): Promise<void>;
}

/**
 * Starts recording for `--record DIR` (nothing when the flag is absent). `pnpm` runs an
 * app in its own folder: a relative folder means the caller's (`INIT_CWD`).
 */
export function startRecording(record: string | undefined): RunRecording | undefined {
  if (record === undefined) return undefined;
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), record);
  const recorder = recordRuns({ dir });
  return {
    dir,
    recorder,
    async finish(terminal, runId) {
      await recorder.close();
      const { colors } = terminal;
      terminal.line(`${terminal.label('recorded')}${dir} ${colors.dim(`(run ${runId})`)}`);
      terminal.line(
        `${terminal.label('inspect')}${inspectorRunUrl(`http://127.0.0.1:${DEFAULT_PORT}`, runId)} ${colors.dim(`(after: pnpm inspect -- --data ${dir})`)}`,
      );
    },
  };
}

/** The `--record DIR` flag, for `parseFlags`. */
export const RECORD_FLAG = { record: { type: 'string' } } as const;
