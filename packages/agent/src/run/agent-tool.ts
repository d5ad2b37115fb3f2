import { defineTool, type Tool, ToolExecutionError } from '@mtpx/executor';
import type { RiskLevel } from '@mtpx/protocol';
import { z } from 'zod';
import { AgentError } from '../agent-error';
import type { AgentEventHandler } from '../events/agent-events';
import type { RunOutput } from './run-output';

/** Options of `agent.asTool`. */
export interface AgentToolOptions {
  /** The tool's name. Default `agent.member.<agent name>` (Python MTPX's convention). */
  name?: string;
  /** What the agent is good at, for the model that may delegate to it. */
  description?: string;
  /** Input to the delegating executor's policy. Default `read_only`: the member agent's own policy governs its tools. */
  risk_level?: RiskLevel;
  /** Time limit of one delegated run, in milliseconds (its signal then fires). */
  timeoutMs?: number;
  /** @deprecated Use {@link AgentToolOptions.timeoutMs}; removed in the next minor. */
  timeout_ms?: number;
  /** Receives the member agent's events (each delegated run has its own `runId`). */
  onEvent?: AgentEventHandler;
}

/**
 * What a delegated call's arguments hold.
 * @internal
 */
export const AgentToolInputSchema = z.object({
  input: z
    .string()
    .describe('The task for the agent, in full: it sees nothing of this conversation but this.'),
});

/** A delegated call's arguments: `{ input: string }`. */
export type AgentToolInput = z.output<typeof AgentToolInputSchema>;

/** What `asTool` needs from an agent. */
export interface DelegateAgent {
  readonly name: string | undefined;
  /** Runs the agent once on `input` and resolves with its output. */
  run(
    input: string,
    options: { signal: AbortSignal; onEvent?: AgentEventHandler },
  ): Promise<RunOutput>;
}

/**
 * An executor tool that runs `agent` on its `input` and returns the agent's final text —
 * one agent delegating to another. A delegated run that stops without an answer
 * (`max_rounds`, `tool_call_limit`) fails the call with the reason and any partial text;
 * a provider failure fails it with the provider's message. Cancelling the delegating call
 * (its signal, or `timeoutMs`) cancels the delegated run.
 */
export function agentAsTool(
  agent: DelegateAgent,
  options: AgentToolOptions = {},
): Tool<AgentToolInput> {
  const name =
    options.name ?? (agent.name === undefined ? undefined : `agent.member.${agent.name}`);
  if (name === undefined) {
    throw new AgentError({
      code: 'invalid_option',
      message: 'asTool needs a `name` when the agent has none (createAgent({ name })).',
    });
  }
  const onEvent = options.onEvent;
  const timeoutMs = options.timeoutMs ?? options.timeout_ms;
  return defineTool({
    name,
    description:
      options.description ??
      `Delegates a task to the ${agent.name ?? name} agent and returns its answer.`,
    input_schema: AgentToolInputSchema,
    risk_level: options.risk_level ?? 'read_only',
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    execute: async ({ input }, { signal }) => {
      const output = await agent.run(input, {
        signal,
        ...(onEvent === undefined ? {} : { onEvent }),
      });
      if (output.stopReason === 'final') return output.finalText;
      const partial = output.finalText === '' ? '' : ` Its last text: ${output.finalText}`;
      throw new ToolExecutionError({
        message: `The ${name} agent stopped without a final answer (${stopText(output)}).${partial}`,
      });
    },
  });
}

function stopText(output: RunOutput): string {
  switch (output.stopReason) {
    case 'max_rounds':
      return `it used all of its ${output.rounds} rounds`;
    case 'tool_call_limit':
      return 'it reached its tool call limit';
    case 'awaiting_approval':
      return `it waits for a person's approval of ${output.pendingApprovals?.length ?? 0} call(s); resume run ${output.runId} with the decisions`;
    default:
      return 'it was cancelled';
  }
}
