import type { Readable, Writable } from 'node:stream';
import { type AgentEvent, createAgent, type RunOutput } from '@mtpx/agent';
import { createModelProvider, shouldColor, startRecording, Terminal } from '@mtpx/example-kit';
import { createExecutor } from '@mtpx/executor';
import { TimelineView } from '@mtpx/inspector';
import type { Provider } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { TerminalApprover } from './approval';
import { laterState, printPending, resumeLater } from './approve-later';
import type { CliOptions } from './cli-options';
import { eventJson } from './event-json';
import { INSTRUCTIONS, QUESTION, scriptedTurns } from './scenario';
import { agentTools, createWorkspace, warmUpTools } from './workspace';

/** An agent event as one JSON line (moved to ./event-json; kept here for its importers). */
export { eventJson };

/** Where the app reads and writes. */
export interface AppIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean; columns?: number };
  stderr: Writable;
}

/**
 * The width to lay the timeline out for: the terminal's, or `COLUMNS` when set (piped
 * output is not wrapped otherwise).
 */
function terminalColumns(stream: Writable & { columns?: number }): number | undefined {
  if (stream.columns !== undefined && stream.columns > 0) return stream.columns;
  const fromEnvironment = Number(process.env.COLUMNS);
  return Number.isInteger(fromEnvironment) && fromEnvironment > 0 ? fromEnvironment : undefined;
}

/** The offline model: the scenario's native responses, streamed in small chunks with a first-token delay. */
export function offlineProvider(): Provider {
  return scriptedProvider(scriptedTurns, {
    latencyMs: 250,
    chunkDelayMs: 15,
    chunkSize: 12,
    model: 'offline-script',
  });
}

/**
 * Runs the agent once on the question, streamed with eager dispatch, and shows it: the
 * timeline (or `--json` events). Resolves with the exit code: 0 when the model answered.
 */
export async function runApp(options: CliOptions, io: AppIo): Promise<number> {
  const model = options.model ? await createModelProvider(options.model) : undefined;
  // With --json, stdout carries only events: people-facing text goes to stderr.
  const people = options.json ? io.stderr : io.stdout;
  const columns = terminalColumns(people);
  const terminal = new Terminal(people, shouldColor(people, options.color), { columns });
  const { colors } = terminal;
  // --approve-later and --run keep their journal and files for the next command.
  const later =
    options.approveLater || options.resumeRun !== undefined
      ? await laterState(options.stateDir)
      : undefined;
  const workspace = later ? { root: later.root, remove: async () => {} } : await createWorkspace();
  const approver = options.ask ? new TerminalApprover(terminal, io.stdin, people) : undefined;
  const recording = startRecording(options.record);
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  try {
    const executor = createExecutor({
      tools: agentTools(workspace.root, options.toolLatencyMs),
      ...(approver || later ? { policy: { defaults: { write: 'ask', destructive: 'ask' } } } : {}),
      ...(approver ? { approve: approver.approve } : {}),
    });
    await warmUpTools(executor);
    const agent = createAgent({
      provider: model?.provider ?? offlineProvider(),
      tools: executor,
      instructions: INSTRUCTIONS,
      eagerDispatch: options.eager,
      ...(recording ? { onEvent: recording.recorder } : {}),
      ...(later ? { journal: later.journal } : {}),
    });
    if (!options.json) {
      terminal.line(colors.bold('calculator-agent · one model response, one tool round'));
      terminal.line();
      terminal.line(
        `${terminal.label('model')}${model ? model.label : `offline script: native tool calls replayed as a stream ${colors.dim('(no key, no network; --provider for a real model)')}`}`,
      );
      const latency =
        options.toolLatencyMs > 0
          ? ` · each call takes ${options.toolLatencyMs} ms more, like a remote service ${colors.dim('(--tool-latency)')}`
          : '';
      terminal.line(`${terminal.label('tools')}calculator.*, file.*${latency}`);
      terminal.line(
        `${terminal.label('files')}${workspace.root} ${colors.dim('(a temporary folder the file tools cannot leave)')}`,
      );
      if (approver) terminal.line(`${terminal.label('approval')}write tools ask you first (--ask)`);
    }
    const timeline = new TimelineView(terminal, { chartWidth: 60, columns });
    const show = (event: AgentEvent) => {
      if (options.json) io.stdout.write(`${eventJson(event)}\n`);
      else timeline.handle(event);
    };
    let output: RunOutput;
    if (options.resumeRun !== undefined) {
      output = await resumeLater(agent, { ...options, resumeRun: options.resumeRun }, show);
    } else {
      const stream = agent.stream(options.question ?? QUESTION, { signal: stop.signal });
      for await (const event of stream) show(event);
      output = await stream.result;
    }
    await recording?.finish(terminal, output.runId);
    if (output.stopReason === 'awaiting_approval') {
      printPending(terminal, output, options.stateDir);
      return 0;
    }
    return output.stopReason === 'final' ? 0 : 1;
  } finally {
    process.off('SIGINT', onInterrupt);
    approver?.close();
    await workspace.remove();
  }
}
