import { parseArgs } from 'node:util';

/** What `pnpm bench` was asked for. */
export interface CliOptions {
  quick: boolean;
  /** Where to write the results (relative to the app folder unless absolute). */
  out: string;
  /** Which rows to run, 1–9. */
  rows: number[];
  help: boolean;
}

export const usage = `pnpm bench [--quick] [--rows 1,2,…] [--out FILE]

  --quick      tiny sizes and a twentieth of the scripted delays: proves every row runs in a
               few seconds (what CI runs); the numbers mean nothing
  --rows LIST  run only these rows (1 scheduling, 2 overhead, 3 rounds saved,
               4 streaming dispatch, 5 MPL proxy, 6 hashing and validation,
               7 remote tools on worker processes, 8 realistic toolset, 9 tool search)
  --out FILE   where to write the results (default: results.json, or results.local.json
               with --quick or --rows, so the committed full run stays as it is)`;

/** Parses the command line; throws on an unknown option or a bad row list. */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      rows: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const rows =
    values.rows === undefined
      ? [1, 2, 3, 4, 5, 6, 7, 8, 9]
      : values.rows.split(',').map((text) => {
          const row = Number(text.trim());
          if (!Number.isInteger(row) || row < 1 || row > 9) {
            throw new Error(`--rows takes numbers from 1 to 9, got "${text}"`);
          }
          return row;
        });
  const partial = values.quick || values.rows !== undefined;
  return {
    quick: values.quick,
    out: values.out ?? (partial ? 'results.local.json' : 'results.json'),
    rows: [...new Set(rows)].sort(),
    help: values.help,
  };
}
