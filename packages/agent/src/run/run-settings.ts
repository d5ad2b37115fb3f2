import type { ApprovalAnswer, Executor } from '@mtpx/executor';
import type { Provider, ToolSpec } from '@mtpx/protocol';
import type { ApprovalSecret } from '../approvals/approval-signature';
import type { AgentEventHandler } from '../events/agent-events';
import type { JournaledCall, JournaledRun, RunJournal } from '../journal/run-journal';
import type { LeaseSettings, RunLeaseKeeper } from '../journal/run-lease-keeper';
import type { SessionStore } from '../session/session';
import type { ToolSearch } from '../tool-search/tool-search';
import type { EagerDispatch } from './eager-dispatch';

/** How an agent runs (fixed per agent, with per-run overrides applied). */
export interface RunSettings {
  provider: Provider;
  executor: Executor;
  /** The system message (built-in instructions and the agent's own), if any. */
  systemPrompt: string | undefined;
  /** The tool specs to offer the model, as the provider should see them. */
  toolSpecs: () => Promise<ToolSpec[]>;
  maxRounds: number;
  toolCallLimit: number;
  /** Model turns streamed (`stream()`) or whole (`run()`). */
  streaming: boolean;
  /** When streamed calls start, and whether write calls wait for a normal finish. */
  eagerDispatch: EagerDispatch;
  sessionStore: SessionStore;
  agentName: string | undefined;
  /** Where the run is journaled so that it can be resumed, if anywhere. */
  journal: RunJournal | undefined;
  /** How a journaled run takes its lease. */
  lease: LeaseSettings;
  /** Signs pending approvals; decisions must carry the signature. */
  approvalSecret?: ApprovalSecret | undefined;
  /** Which tools are deferred and what each round offers, when tool search is on. */
  toolSearch?: ToolSearch | undefined;
}

/** One run's request. */
export interface RunRequest {
  runId: string;
  input: string;
  signal: AbortSignal;
  sessionId: string | undefined;
  userId: string | undefined;
  onEvent: AgentEventHandler | undefined;
  /** The run's journal entry and finished calls, when this is `agent.resume`. */
  resumed?: {
    run: JournaledRun;
    calls: JournaledCall[];
    lease?: RunLeaseKeeper;
    /** Decisions on its approvals, checked, by approval id. */
    answers?: ReadonlyMap<string, ApprovalAnswer>;
  };
}
