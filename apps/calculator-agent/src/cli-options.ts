import {
  CliError,
  COMMON_FLAGS,
  colorFlag,
  MODEL_FLAGS,
  type ModelChoice,
  modelChoiceFromFlags,
  parseFlags,
  providerHelpLines,
  RECORD_FLAG,
} from '@mtpx/example-kit';

/** Everything the command line can set. */
export interface CliOptions {
  /** A real model; the offline script when absent. */
  model?: ModelChoice;
  /** The question (a real model only: the script answers the seed's question). */
  question?: string;
  /** Print the event stream as JSON lines instead of the timeline. */
  json: boolean;
  /** Ask at the terminal before write and destructive tools run. */
  ask: boolean;
  /** Stop at the write and journal the run; a later command decides (`--approve` / `--deny`). */
  approveLater: boolean;
  /** Resume this journaled run with the decisions below. */
  resumeRun?: string;
  /** Approval ids to grant, and to decline, when resuming. */
  approve: string[];
  deny: string[];
  /** Where `--approve-later` keeps the run journal and the file tools' folder. */
  stateDir?: string;
  /** Start calls only once the model's stream has ended (to compare). */
  eager: boolean;
  /** Extra milliseconds every tool takes; default 150 offline, 0 with a real model. */
  toolLatencyMs: number;
  /** Record the run into this data folder, for `mtpx-inspector`. */
  record?: string;
  color?: boolean;
  help: boolean;
}

/** The text `--help` prints. */
export const HELP = `calculator-agent: one model response, a $ref chain and independent calls, one tool round

Usage: pnpm demo [options]        (or: pnpm -C apps/calculator-agent start [options])

  --provider NAME        a real model: one of the providers below
  --model ID             the model (each provider has a default but lmstudio and vllm)
  --base-url URL         the provider's API base URL
  --api chat|responses   OpenAI's wire: responses (default for openai) or chat (default for other presets)
  --question TEXT        your own question (with --provider; offline, the script answers the seed's)
  --ask                  ask at the terminal before write tools run (file.write_file)
  --approve-later        stop at the write, journal the run and print its pending approval;
                         then: --run RUN_ID --approve APPROVAL_ID (or --deny APPROVAL_ID)
  --run RUN_ID           resume a run --approve-later stopped, with the decisions below
  --approve ID, --deny ID  grant or decline a pending approval (repeatable)
  --state DIR            where --approve-later keeps its run journal and files
                         (default: calculator-agent in the system's temporary folder)
  --json                 print the agent's events as JSON lines instead of the timeline
  --no-eager             start tool calls only after the model's stream has ended, to compare
  --tool-latency MS      extra milliseconds per tool call (default 150 offline, 0 with --provider)
  --record DIR           record the run into DIR and print its Inspector link (pnpm inspect)
  --color, --no-color    force colour on or off (default: on in a terminal)
  -h, --help             this text

Offline by default: a scripted model replays native, streamed tool calls. Real providers
read their key from the variable listed below.

Providers (--provider NAME): the API key and base URL variables each reads
${providerHelpLines()}`;

/** Parses the command line (a leading `--`, as pnpm may pass it, is ignored). */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  const { values, positionals } = parseFlags(argv, {
    allowPositionals: true,
    options: {
      ...MODEL_FLAGS,
      question: { type: 'string' },
      ask: { type: 'boolean' },
      'approve-later': { type: 'boolean' },
      run: { type: 'string' },
      approve: { type: 'string', multiple: true },
      deny: { type: 'string', multiple: true },
      state: { type: 'string' },
      json: { type: 'boolean' },
      'no-eager': { type: 'boolean' },
      'tool-latency': { type: 'string' },
      ...RECORD_FLAG,
      ...COMMON_FLAGS,
    },
  });
  const options: CliOptions = {
    json: values.json === true,
    ask: values.ask === true,
    approveLater: values['approve-later'] === true,
    approve: values.approve ?? [],
    deny: values.deny ?? [],
    eager: values['no-eager'] !== true,
    toolLatencyMs: 0,
    help: values.help === true,
  };
  const color = colorFlag(values);
  if (color !== undefined) options.color = color;

  const model = modelChoiceFromFlags(values, 'the model');
  if (model !== undefined) options.model = model;

  const question = values.question ?? (positionals.length > 0 ? positionals.join(' ') : undefined);
  if (question !== undefined) {
    if (options.model === undefined)
      throw new CliError(
        'A question of your own needs a real model (--provider …): the offline script answers the seed’s question.',
      );
    options.question = question;
  }

  if (values.run !== undefined) {
    if (values.run === '') throw new CliError('--run needs the run id --approve-later printed.');
    options.resumeRun = values.run;
  }
  if (values.state !== undefined) {
    if (values.state === '') throw new CliError('--state needs a folder: --state DIR.');
    options.stateDir = values.state;
  }
  if ((options.approve.length > 0 || options.deny.length > 0) && options.resumeRun === undefined)
    throw new CliError('--approve and --deny answer a journaled run: add --run RUN_ID.');
  if (options.approveLater && options.ask)
    throw new CliError('--ask decides now, --approve-later decides later: choose one.');

  if (values.record !== undefined) {
    if (values.record === '') throw new CliError('--record needs a folder: --record DIR.');
    options.record = values.record;
  }

  const latency = values['tool-latency'];
  options.toolLatencyMs = options.model === undefined ? 150 : 0;
  if (latency !== undefined) {
    const milliseconds = Number(latency);
    if (!Number.isInteger(milliseconds) || milliseconds < 0 || milliseconds > 60_000)
      throw new CliError(
        `--tool-latency must be a whole number of milliseconds (0–60000), not "${latency}".`,
      );
    options.toolLatencyMs = milliseconds;
  }
  return options;
}
