import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, createModelProvider, type Terminal } from '@mtpx/example-kit';
import {
  ConnectionError,
  type HandledMessage,
  MplClient,
  MplError,
  type MplSession,
  type TaskPlanPayload,
  verifyChain,
} from '@mtpx/mpl';
import { startProxy } from '@mtpx/mpl-proxy';
import type { CliOptions } from './cli-options';
import { PlanExecutor, type PlanOutcome } from './plan-executor';
import { createPlanTools, SUMMARY_STYPE } from './plan-tools';
import { PlanView } from './plan-view';
import { requestPlan, scriptedPlanner } from './planner';
import { TUTORIAL_PLANS } from './tutorial-plans';

/** This app's own STypes (`org.report.Summary.v1`), in the reference registry layout. */
export const APP_STYPES_DIRECTORY = fileURLToPath(new URL('../stypes', import.meta.url));

/** The QoM profile every message asks for, as in the tutorial. */
const PROFILE = 'qom-strict-argcheck';

/** Every SType the planner and executor exchange. */
const REQUIRED_STYPES = [
  'org.agent.TaskPlan.v1',
  'ai.agent.Reasoning.v1',
  'org.agent.ToolInvocation.v1',
  'org.agent.ToolResult.v1',
  'eval.rag.RAGQuery.v1',
  SUMMARY_STYPE,
];

interface ProxyConnection {
  url: string;
  description: string;
  close(): Promise<void>;
}

async function embeddedProxy(dataDir: string | undefined): Promise<ProxyConnection> {
  const directory = dataDir ?? (await mkdtemp(join(tmpdir(), 'planner-executor-')));
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const proxy = await startProxy({ port: 0, dataDir: directory, stypes: [APP_STYPES_DIRECTORY] });
  return {
    url: proxy.url,
    description: `embedded MPL proxy at ${proxy.url} (strict mode, SQLite provenance in ${directory})`,
    close: async () => {
      await proxy.close();
      if (!dataDir) await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Subscribes the executor's session; resolves once the proxy will deliver to it, with
 * the promise of the session's end (wrapped, so awaiting this does not wait for that).
 */
async function startSession(
  session: MplSession,
  signal: AbortSignal,
  onHandled: (handled: HandledMessage) => void,
): Promise<{ stopped: Promise<unknown> }> {
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const running = session.run({ signal, onReady: () => markReady(), onHandled });
  await Promise.race([
    ready,
    running.then(() => {
      throw new CliError('The proxy closed the message stream before the session was ready.', {
        exitCode: 1,
      });
    }),
  ]);
  return { stopped: running };
}

/**
 * The whole tutorial: the proxy (embedded or `--proxy`), the executor's session, the
 * planner's TaskPlan, the executor's run of it, then the plan's provenance chain and its
 * verification. Resolves with the exit code.
 */
export async function runApp(options: CliOptions, terminal: Terminal): Promise<number> {
  const view = new PlanView(terminal);
  const tutorialPlan = TUTORIAL_PLANS[options.plan];
  const planner = options.model
    ? await createModelProvider(options.model)
    : { provider: scriptedPlanner(tutorialPlan), label: 'scripted model (offline)' };
  terminal.line(
    terminal.colors.bold('planner-executor · the MPL multi-agent tutorial, end to end'),
  );
  terminal.line();
  const proxy = options.proxy
    ? { url: options.proxy, description: `MPL proxy at ${options.proxy}`, close: async () => {} }
    : await embeddedProxy(options.dataDir);
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  try {
    const client = new MplClient(proxy.url, options.token ? { token: options.token } : {});
    terminal.line(`${terminal.label('proxy')}${proxy.description}`);
    terminal.line(
      `${' '.repeat(11)}every message is validated, judged by QoM profile ${PROFILE}, hashed and chained`,
    );
    const session = await openSession(client, proxy.url);

    const tools = createPlanTools({ failOnce: options.failOnce });
    const { plan, usage } = await requestPlan(
      planner.provider,
      tools,
      tutorialPlan.goal,
      stop.signal,
    );

    // The executor: a session handler for TaskPlans, which the proxy forwards once valid.
    let planShown: () => void = () => {};
    const planAnnounced = new Promise<void>((resolve) => {
      planShown = resolve;
    });
    let finish: (outcome: PlanOutcome) => void = () => {};
    let fail: (error: unknown) => void = () => {};
    const finished = new Promise<PlanOutcome>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    const executor = new PlanExecutor({
      client,
      tools,
      profile: PROFILE,
      strategy: options.strategy,
      onEvent: (event) => view.event(event),
    });
    session.onMessage('org.agent.TaskPlan.v1', async (message) => {
      // Another client's plan on a shared proxy is not ours to run.
      if (message.payload.planId !== plan.planId) return { status: 'ignored' };
      await planAnnounced; // the planner's line first, so the output reads in order
      view.planReceived(message.payload.goal);
      const outcome = await executor.execute(message.payload, stop.signal);
      finish(outcome);
      return { status: outcome.status, planId: outcome.planId };
    });
    const { stopped: sessionStopped } = await startSession(session, stop.signal, (handled) => {
      if (handled.message.plan_id !== plan.planId) return;
      if (handled.status === 'failed') fail(handled.error);
      if (handled.status === 'invalid' || handled.status === 'unhandled')
        fail(new Error(`The executor could not handle the plan (${handled.status}).`));
    });

    // The planner sends its plan through the proxy.
    view.plan(plan, planner.label, usage, options.strategy);
    const accepted = await sendPlan(client, plan, view);
    planShown();
    if (!accepted) {
      terminal.line();
      terminal.line(
        `${terminal.label('result')}${terminal.colors.red('the proxy refused the plan: nothing was run, nothing recorded')}`,
      );
      stop.abort();
      await sessionStopped;
      return 1;
    }
    let outcome: PlanOutcome | undefined;
    try {
      outcome = await Promise.race([finished, sessionStopped.then(() => undefined)]);
    } finally {
      stop.abort();
      await sessionStopped;
    }
    if (outcome === undefined)
      throw stop.signal.aborted
        ? new CliError('Interrupted.', { exitCode: 130 })
        : new CliError('The executor session ended before the plan was run.', { exitCode: 1 });
    view.outcome(outcome);

    // The provenance chain, verified here (every hash recomputed) and by the proxy.
    const { chain } = await client.provenance({ planId: plan.planId, payloads: true });
    view.chain(plan.planId, chain);
    const local = verifyChain(chain);
    const remote = await client.verifyProvenance({ planId: plan.planId });
    const valid = local.valid && remote.valid && remote.length === chain.length;
    view.verification({
      valid,
      length: chain.length,
      head: local.head,
      problems: [...local.problems, ...remote.problems].map((problem) => problem.message),
    });
    return valid && (outcome.status === 'completed' || outcome.status === 'partial') ? 0 : 1;
  } finally {
    process.off('SIGINT', onInterrupt);
    await proxy.close();
  }
}

async function openSession(client: MplClient, url: string): Promise<MplSession> {
  let session: MplSession;
  try {
    session = await client.createSession({ stypes: REQUIRED_STYPES, profile: PROFILE });
  } catch (error) {
    if (ConnectionError.isInstance(error))
      throw new CliError(
        `${error.message.replace(/\.$/, '')}. Is it running? (\`mpl serve --stypes ${APP_STYPES_DIRECTORY}\`)`,
        { exitCode: 1 },
      );
    if (MplError.isInstance(error))
      throw new CliError(`The MPL proxy at ${url} refused the handshake: ${error.message}`, {
        exitCode: 1,
      });
    throw error;
  }
  const known = new Set(session.negotiated?.common_stypes ?? []);
  const missing = REQUIRED_STYPES.filter((stype) => !known.has(stype));
  if (missing.length > 0)
    throw new CliError(
      `The MPL proxy at ${url} does not know ${missing.join(', ')}: start it with \`mpl serve --stypes ${APP_STYPES_DIRECTORY}\`.`,
      { exitCode: 1 },
    );
  return session;
}

async function sendPlan(client: MplClient, plan: TaskPlanPayload, view: PlanView) {
  try {
    const call = await client.call('agent.plan', {
      payload: plan,
      stype: 'org.agent.TaskPlan.v1',
      profile: PROFILE,
    });
    view.recorded('agent.plan', 'org.agent.TaskPlan.v1', call);
    return true;
  } catch (error) {
    if (!MplError.isInstance(error)) throw error;
    view.event({
      type: 'message-refused',
      method: 'agent.plan',
      stype: 'org.agent.TaskPlan.v1',
      error,
    });
    return false;
  }
}
