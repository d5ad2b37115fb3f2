import { type AgentSample, type Expectation, sampleAgentRun } from './agent-sample';
import type { ToolLog } from './scenario-tools';
import type { RecordedBody } from './tokens-sent';

/** A scripted model server as rows 3 and 4 use it. */
export interface ScriptServer {
  url: string;
  readonly requests: readonly RecordedBody[];
  close(): Promise<void>;
}

/** One way of running a row's task: which server script, which framework, what it must do. */
export interface AgentVariant {
  /** The line's label in the table. */
  label: string;
  /** A fresh scripted server for one run (its script decides the model's answers). */
  startServer: () => Promise<ScriptServer>;
  /** The framework, ready to run the task against `serverUrl`, its tools working through `log`. */
  prepare: (serverUrl: string, log: ToolLog) => () => Promise<string>;
  /** Model calls the run must make. */
  modelCalls: number;
  /** The row's lower bound for this variant, in milliseconds. */
  lowerBoundMs: number;
}

/**
 * One timed run of `variant`: a fresh server and tool log, the framework set up before
 * the clock starts, then the run checked by `check` (given the log and the answer).
 */
export async function runVariant(
  variant: AgentVariant,
  newLog: () => ToolLog,
  check: (log: ToolLog, answer: string) => string | undefined,
): Promise<AgentSample> {
  const server = await variant.startServer();
  const log = newLog();
  const run = variant.prepare(server.url, log);
  let answer = '';
  const expected: Expectation = {
    modelCalls: variant.modelCalls,
    check: () => check(log, answer),
  };
  try {
    return await sampleAgentRun(variant.label, server, expected, async () => {
      answer = await run();
    });
  } finally {
    await server.close();
  }
}
