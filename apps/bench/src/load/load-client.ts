import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { LoadReply, LoadReport, LoadRequest } from './load-protocol';

/** How many times a window that saw no answer is run again, each twice as long. */
const MAX_LONGER_WINDOWS = 4;

/** The load generator process, started once and reused for every run of row 5. */
export class LoadProcess {
  readonly #child: ChildProcess;

  private constructor(child: ChildProcess) {
    this.#child = child;
  }

  /** Forks `load-process.ts` (through tsx) and waits until it is up. */
  static async start(): Promise<LoadProcess> {
    const script = fileURLToPath(new URL('./load-process.ts', import.meta.url));
    const child = fork(script, [], {
      execArgv: ['--import', import.meta.resolve('tsx')],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    await once(child, 'spawn');
    return new LoadProcess(child);
  }

  /**
   * One autocannon run; rejects when the run fails or any answer was not 2xx. A window in
   * which no answer came at all, and nothing failed, measured nothing (a quick run's 0.2 s
   * on a starved machine): it is run again, twice as long, up to {@link MAX_LONGER_WINDOWS}
   * times, and the report is the last run's.
   */
  async load(request: Omit<LoadRequest, 'type'>): Promise<LoadReport> {
    let durationSeconds = request.durationSeconds;
    for (let longer = 0; ; longer += 1) {
      const result = await this.#run({ ...request, durationSeconds });
      const sawNothing = result.completed === 0 && result.non2xx === 0 && result.errors === 0;
      if (sawNothing && longer < MAX_LONGER_WINDOWS) {
        durationSeconds *= 2;
        continue;
      }
      if (result.non2xx > 0 || result.errors > 0 || result.completed === 0) {
        throw new Error(
          `load against ${request.url}: ${result.completed} answers 2xx, ${result.non2xx} not, ${result.errors} errors${longer > 0 ? ` (a ${durationSeconds} s window, after ${longer} shorter ones saw no answer)` : ''}`,
        );
      }
      return result;
    }
  }

  async #run(request: Omit<LoadRequest, 'type'>): Promise<LoadReport> {
    const reply = new Promise<LoadReply>((resolve, reject) => {
      const onExit = (code: number | null) =>
        reject(new Error(`the load process exited (code ${code}) during a run`));
      this.#child.once('exit', onExit);
      this.#child.once('message', (message: LoadReply) => {
        this.#child.off('exit', onExit);
        resolve(message);
      });
    });
    this.#child.send({ type: 'load', ...request } satisfies LoadRequest);
    const result = await reply;
    if (result.type === 'failure') throw new Error(`load process: ${result.message}`);
    return result;
  }

  /** Ends the process. */
  async stop(): Promise<void> {
    if (this.#child.exitCode !== null || !this.#child.connected) return;
    const exited = once(this.#child, 'exit');
    this.#child.disconnect();
    await exited;
  }
}
