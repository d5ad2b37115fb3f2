import {
  CliError,
  COMMON_FLAGS,
  colorFlag,
  httpUrlFlag,
  MODEL_FLAGS,
  type ModelChoice,
  modelChoiceFromFlags,
  parseFlags,
  providerHelpLines,
  RECORD_FLAG,
} from '@mtpx/example-kit';
import type { McpClientEra } from '@mtpx/mcp';
import type { ServerChoice } from './mcp-connection';
import { isDate, type PresetAnswer } from './terminal-user';

/** Everything the command line can set. */
export interface CliOptions {
  /** The name to book under; asked at the terminal when absent. */
  name?: string;
  party: number;
  /** Answers to the server's questions, by form field (`date`, `confirm`). */
  answers: Record<string, PresetAnswer>;
  era: McpClientEra;
  server: ServerChoice;
  /** A real model for the client agent; the offline script when absent. */
  model?: ModelChoice;
  color?: boolean;
  /** Record the run into this data folder, for `mtpx-inspector`. */
  record?: string;
  help: boolean;
}

/** The text `--help` prints. */
export const HELP = `mcp-multiround: an MTPX agent books a table through a multi-round MCP tool

Usage: pnpm -C apps/mcp-multiround start [options]

  --name NAME          the name to book under (asked at the terminal when left out)
  --party N            how many people (default 2)
  --date YYYY-MM-DD    answers the server's date question (asked at the terminal otherwise)
  --yes, --no          answers the server's confirmation (asked at the terminal otherwise)
  --era 2026|2025|auto the client's MCP protocol era (default 2026: MCP 2026-07-28)
  --transport http|stdio
                       Streamable HTTP to a server in this process (default), or stdio to a
                       server this client spawns
  --server URL         a running server instead (pnpm -C apps/mcp-multiround server --http)
  --provider NAME      a real model for the agent: one of the providers below
  --model ID, --base-url URL
  --record DIR         record the run into DIR and print its Inspector link (pnpm inspect)
  --color, --no-color  force colour on or off (default: on in a terminal)
  -h, --help           this text

Non-interactive: pnpm -C apps/mcp-multiround start --name Ada --date 2026-12-24 --yes

Providers (--provider NAME): the API key and base URL variables each reads
${providerHelpLines()}`;

/** Parses the command line (a leading `--`, as pnpm may pass it, is ignored). */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  const { values } = parseFlags(argv, {
    options: {
      name: { type: 'string' },
      party: { type: 'string' },
      date: { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      no: { type: 'boolean' },
      era: { type: 'string' },
      transport: { type: 'string' },
      server: { type: 'string' },
      ...MODEL_FLAGS,
      ...RECORD_FLAG,
      ...COMMON_FLAGS,
    },
  });
  const options: CliOptions = {
    party: 2,
    answers: {},
    era: '2026',
    server: { transport: 'http' },
    help: values.help === true,
  };
  if (values.name !== undefined) {
    if (values.name.trim() === '') throw new CliError('--name must not be empty.');
    options.name = values.name.trim();
  }
  if (values.party !== undefined) {
    const party = Number(values.party);
    if (!Number.isInteger(party) || party < 1 || party > 12)
      throw new CliError(`--party must be a whole number from 1 to 12, not "${values.party}".`);
    options.party = party;
  }
  if (values.date !== undefined) {
    if (!isDate(values.date))
      throw new CliError(`--date must be a date written YYYY-MM-DD, not "${values.date}".`);
    options.answers.date = { value: values.date, flag: '--date' };
  }
  if (values.yes && values.no) throw new CliError('Pass --yes or --no, not both.');
  if (values.yes) options.answers.confirm = { value: true, flag: '--yes' };
  if (values.no) options.answers.confirm = { value: false, flag: '--no' };
  if (values.era !== undefined) {
    if (values.era !== '2025' && values.era !== '2026' && values.era !== 'auto')
      throw new CliError(`--era must be 2026, 2025 or auto, not "${values.era}".`);
    options.era = values.era;
  }
  const transport = values.transport ?? 'http';
  if (transport !== 'http' && transport !== 'stdio')
    throw new CliError(`--transport must be http or stdio, not "${transport}".`);
  if (values.server !== undefined) {
    if (transport === 'stdio')
      throw new CliError(
        '--server is a Streamable HTTP URL: it does not go with --transport stdio.',
      );
    options.server = { transport: 'http', url: new URL(httpUrlFlag('--server', values.server)) };
  } else options.server = { transport };
  const color = colorFlag(values);
  if (color !== undefined) options.color = color;
  if (values.record !== undefined) {
    if (values.record === '') throw new CliError('--record needs a folder: --record DIR.');
    options.record = values.record;
  }
  const model = modelChoiceFromFlags(values, 'the agent');
  if (model !== undefined) options.model = model;
  return options;
}
