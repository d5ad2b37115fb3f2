import type { ModelServer } from '@mtpx/providers/testing';
import { now } from '../support/clock';
import type { ResultLine } from '../support/results';
import { interleave } from '../support/stats';
import { type AgentSample, agentLine } from './agent-sample';
import type { ToolLog } from './scenario-tools';
import { anthropicTokensSent, tokensSent } from './tokens-sent';

/** The tool log of the run in progress: tools are made once and write to the current one. */
export interface CurrentLog<Log = ToolLog> {
  current: Log;
}

/** A variant set up for a series of runs: its server and its framework, ready. */
export interface PreparedVariant {
  server: ModelServer;
  /** Runs the task once; resolves with the model's final text. */
  run: () => Promise<string>;
}

/** One way of running a row's task: which script, which framework, what it must do. */
export interface AgentVariant<Log = ToolLog> {
  /** The line's label in the table. */
  label: string;
  /**
   * Starts a scripted server holding the conversation `runs` times over and points the
   * framework at it. Like an application, the framework (client, tools, agent) is made
   * once and reused by every run; its tools write to `log.current`.
   */
  setUp: (runs: number, log: CurrentLog<Log>) => Promise<PreparedVariant>;
  /** Model calls one run must make. */
  modelCalls: number;
  /** The row's lower bound for this variant, in milliseconds. */
  lowerBoundMs: number;
}

/** A framework made once against a scripted server's URL: resolves each run with the final text. */
export type AgentRunner<Log = ToolLog> = (
  serverUrl: string,
  log: CurrentLog<Log>,
) => () => Promise<string>;

/** A variant's `setUp`: starts the server for `runs` runs, then makes `runner` against it. */
export function setUpWith<Log = ToolLog>(
  startServer: (runs: number) => Promise<ModelServer>,
  runner: AgentRunner<Log>,
): AgentVariant<Log>['setUp'] {
  return async (runs, log) => {
    const server = await startServer(runs);
    return { server, run: runner(server.url, log) };
  };
}

/** What a run must have done, given its tool log and the model's final text. */
export type RunCheck<Log = ToolLog> = (log: Log, answer: string) => string | undefined;

/**
 * Runs every variant `repetitions` times (after one untimed run each: module loading,
 * JIT, connections, the tokenizer's tables), interleaved, and checks each run: its model
 * calls, its tools' work and its answer. A run that did something else throws — a
 * benchmark of a broken flow measures nothing. Tokens are counted from the requests the
 * run's server received.
 */
export async function measureVariants<Name extends string, Log = ToolLog>(options: {
  variants: Record<Name, AgentVariant<Log>>;
  order: readonly Name[];
  repetitions: number;
  newLog: () => Log;
  check: RunCheck<Log>;
}): Promise<Record<Name, AgentSample[]>> {
  const { variants, order, repetitions, newLog, check } = options;
  const log: CurrentLog<Log> = { current: newLog() };
  const prepared = new Map<Name, PreparedVariant>();
  try {
    for (const name of order) prepared.set(name, await variants[name].setUp(repetitions + 1, log));
    const measure = async (name: Name): Promise<AgentSample> => {
      const variant = variants[name];
      const { server, run } = prepared.get(name) as PreparedVariant;
      log.current = newLog();
      const firstRequest = server.requests.length;
      const started = now();
      const answer = await run();
      const wallMs = now() - started;
      const requests = server.requests.slice(firstRequest);
      const problem =
        requests.length === variant.modelCalls
          ? check(log.current, answer)
          : `${requests.length} model calls, expected ${variant.modelCalls}`;
      if (problem !== undefined) throw new Error(`${variant.label}: ${problem}`);
      return {
        wallMs,
        modelCalls: requests.length,
        tokensSent: tokensSent(requests),
        anthropicTokensSent: anthropicTokensSent(requests),
      };
    };
    for (const name of order) await measure(name);
    return await interleave(
      repetitions,
      order.map((name) => [name, () => measure(name)] as const),
    );
  } finally {
    for (const { server } of prepared.values()) await server.close();
  }
}

/**
 * A row's lines, one per variant in `order`; every other variant is compared with
 * `baseline` (wall time), and every variant but the peer with `peer` (tokens per request).
 */
export function agentLines<Name extends string, Log = ToolLog>(options: {
  benchmark: string;
  variants: Record<Name, AgentVariant<Log>>;
  order: readonly Name[];
  samples: Record<Name, AgentSample[]>;
  baseline: { name: Name; label: string };
  /** The peer of the token comparison, and the variants that run its tools (default: all). */
  peer?: { name: Name; label: string; sameTools?: readonly Name[] };
}): ResultLine[] {
  const { benchmark, variants, samples, baseline, peer } = options;
  return options.order.map((name) =>
    agentLine({
      benchmark,
      variant: variants[name].label,
      samples: samples[name],
      lowerBoundMs: variants[name].lowerBoundMs,
      ...(name === baseline.name
        ? {}
        : { baseline: { label: baseline.label, samples: samples[baseline.name] } }),
      ...(peer === undefined || name === peer.name || !(peer.sameTools ?? [name]).includes(name)
        ? {}
        : { peer: { label: peer.label, samples: samples[peer.name] } }),
    }),
  );
}

/** `turns` repeated `times` times: a script for a server that plays the conversation again and again. */
export function repeated<Turn>(turns: readonly Turn[], times: number): Turn[] {
  return Array.from({ length: times }, () => turns).flat();
}
