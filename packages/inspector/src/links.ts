/** The port `mtpx-inspector serve` listens on unless told otherwise. */
export const DEFAULT_PORT = 4319;

/** The data folder `mtpx-inspector` and `pnpm inspect` read unless told otherwise. */
export const DEFAULT_DATA_DIR = '.mtpx/runs';

/**
 * The Inspector's page of one run.
 *
 * @example
 * ```ts source="./inspector.examples.ts#inspectorRunUrl"
 * const url = inspectorRunUrl('http://127.0.0.1:4319', 'run_1'); // 'http://127.0.0.1:4319/runs/run_1'
 * ```
 */
export function inspectorRunUrl(base: string, runId: string): string {
  return `${base.replace(/\/$/, '')}/runs/${encodeURIComponent(runId)}`;
}
