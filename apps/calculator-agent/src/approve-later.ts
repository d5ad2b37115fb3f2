import { access, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  type Agent,
  AgentError,
  type AgentEvent,
  type ApprovalDecision,
  JsonFileRunJournal,
  type RunOutput,
} from '@mtpx/agent';
import { CliError, type Terminal } from '@mtpx/example-kit';
import { formatCall } from '@mtpx/inspector/internal';
import type { JsonValue } from '@mtpx/protocol';
import type { CliOptions } from './cli-options';
import { WORKSPACE_FILES } from './scenario';

/**
 * Where `--approve-later` keeps what a later command needs: the run journal (JSON files)
 * and the file tools' folder, which outlives the process so the resumed run writes where
 * the first one read.
 */
export interface LaterState {
  journal: JsonFileRunJournal;
  root: string;
}

/** Opens (and on first use fills) the state folder of `--approve-later` and `--run`. */
export async function laterState(stateDir: string | undefined): Promise<LaterState> {
  const directory = stateDir ?? join(tmpdir(), 'calculator-agent');
  const root = join(directory, 'workspace');
  for (const [path, content] of Object.entries(WORKSPACE_FILES)) {
    const file = join(root, path);
    const present = await access(file).then(
      () => true,
      () => false,
    );
    if (present) continue;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return { journal: new JsonFileRunJournal({ directory: join(directory, 'runs') }), root };
}

/** The decisions of `--approve` and `--deny`. */
export function decisionsOf(options: CliOptions): ApprovalDecision[] {
  return [
    ...options.approve.map((approvalId) => ({ approvalId, approved: true })),
    ...options.deny.map((approvalId) => ({
      approvalId,
      approved: false,
      reason: 'declined at the command line',
    })),
  ];
}

/**
 * Resumes `--run` with the decisions, every event to `onEvent`. A refused decision, a run
 * another process holds or an unknown run is a `CliError` with the agent's code.
 */
export async function resumeLater(
  agent: Agent,
  options: CliOptions & { resumeRun: string },
  onEvent: (event: AgentEvent) => void,
): Promise<RunOutput> {
  try {
    return await agent.resume(options.resumeRun, { approvals: decisionsOf(options), onEvent });
  } catch (error) {
    if (AgentError.isInstance(error)) throw new CliError(`${error.code}: ${error.message}`);
    throw error;
  }
}

/** Prints what a run stopped for, and the command that goes on. */
export function printPending(terminal: Terminal, output: RunOutput, stateDir?: string): void {
  const { colors } = terminal;
  terminal.line();
  terminal.line(
    `${terminal.label('waiting')}run ${output.runId} waits for approval; nothing else could run`,
  );
  for (const approval of output.pendingApprovals ?? []) {
    const waiting =
      approval.waiting.length > 0
        ? colors.dim(` · waits on it: ${approval.waiting.join(', ')}`)
        : '';
    terminal.line(
      `  ${approval.approvalId}  ${approval.callId}  ${formatCall(approval.toolName, approval.arguments as JsonValue)} (${approval.riskLevel})${waiting}`,
    );
  }
  const first = output.pendingApprovals?.[0];
  if (first === undefined) return;
  const state = stateDir === undefined ? '' : ` --state ${stateDir}`;
  terminal.line(
    `${terminal.label('next')}pnpm demo --${state} --run ${output.runId} --approve ${first.approvalId}   ${colors.dim('(or --deny)')}`,
  );
}
