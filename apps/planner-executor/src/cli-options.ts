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
} from '@mtpx/example-kit';
import { isPlanName, PLAN_NAMES, type PlanName } from './tutorial-plans';

/** How a failed step is handled; the plan's own `failureStrategy` unless `--strategy` overrides it. */
export type FailureStrategy = 'abort' | 'skip' | 'retry';

/** Everything the command line can set. */
export interface CliOptions {
  /** An MPL proxy to use instead of the embedded one. */
  proxy?: string;
  /** Bearer token of that proxy (`--token`, else `MPL_TOKEN`). */
  token?: string;
  /** Folder for the embedded proxy's provenance database (kept); a temporary one otherwise. */
  dataDir?: string;
  /** Which tutorial plan: its goal, and the plan the scripted planner answers with. */
  plan: PlanName;
  /** A real planner model; the scripted planner when absent. */
  model?: ModelChoice;
  /** Overrides the plan's failure strategy. */
  strategy?: FailureStrategy;
  /** The tool that fails once on purpose (`web_search`), or none. */
  failOnce?: string;
  color?: boolean;
  help: boolean;
}

/** The text `--help` prints. */
export const HELP = `planner-executor: the MPL multi-agent tutorial, end to end

Usage: pnpm -C apps/planner-executor start [options]

  --proxy URL          use a running MPL proxy (mpl serve --stypes apps/planner-executor/stypes)
                       instead of starting one in this process
  --token TOKEN        bearer token of that proxy (default: $MPL_TOKEN)
  --data DIR           keep the embedded proxy's SQLite provenance in DIR
  --plan NAME          search (default): the tutorial's web search step, a 4-entry chain;
                       research: the tutorial's 3-step plan, 2 + 2 × 3 entries
  --provider NAME      plan with a real model: one of the providers below
  --model ID           the model (each provider has a default but lmstudio and vllm)
  --base-url URL       the provider's API base URL
  --strategy S         abort, skip or retry: overrides the plan's failureStrategy
  --no-failure         do not fail web_search once on purpose
  --color, --no-color  force colour on or off (default: on in a terminal)
  -h, --help           this text

Offline by default: the planner is a scripted model replaying a native tool call.

Providers (--provider NAME): the API key and base URL variables each reads
${providerHelpLines()}`;

/** Parses the command line (a leading `--`, as pnpm may pass it, is ignored). */
export function parseCliOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CliOptions {
  const { values } = parseFlags(argv, {
    options: {
      proxy: { type: 'string' },
      token: { type: 'string' },
      data: { type: 'string' },
      plan: { type: 'string' },
      ...MODEL_FLAGS,
      strategy: { type: 'string' },
      'no-failure': { type: 'boolean' },
      ...COMMON_FLAGS,
    },
  });
  const options: CliOptions = {
    help: values.help === true,
    plan: 'search',
    failOnce: 'web_search',
  };
  // Without trailing slashes: the app appends the proxy's routes (`/call`, `/health`).
  if (values.proxy !== undefined)
    options.proxy = httpUrlFlag('--proxy', values.proxy).replace(/\/+$/, '');
  const token = values.token ?? env.MPL_TOKEN;
  if (token) options.token = token;
  if (values.data !== undefined) options.dataDir = values.data;
  if (values.plan !== undefined) {
    if (!isPlanName(values.plan))
      throw new CliError(`--plan must be ${PLAN_NAMES.join(' or ')}, not "${values.plan}".`);
    options.plan = values.plan;
  }
  if (values['no-failure']) delete options.failOnce;
  const color = colorFlag(values);
  if (color !== undefined) options.color = color;
  if (values.strategy !== undefined) {
    if (!['abort', 'skip', 'retry'].includes(values.strategy))
      throw new CliError(`--strategy must be abort, skip or retry, not "${values.strategy}".`);
    options.strategy = values.strategy as FailureStrategy;
  }
  const model = modelChoiceFromFlags(values, 'the planner');
  if (model !== undefined) options.model = model;
  return options;
}
