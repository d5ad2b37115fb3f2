import type { CallResult, MplError, ReasoningPayload } from '@mtpx/mpl';
import type { ToolResult } from '@mtpx/protocol';
import type { FailureStrategy } from './cli-options';

/** What the executor agent reports while it works through a plan, for the terminal. */
export type ExecutorAgentEvent =
  /** A typed message was accepted by the proxy and recorded in the chain. */
  | {
      type: 'message-recorded';
      method: string;
      stype: string;
      stepId?: number;
      call: CallResult;
      /** What the message says, in a few words (`status error`, `args checked against …`). */
      note?: string;
    }
  /** The proxy refused a message (schema, args_stype, QoM): nothing was recorded. */
  | { type: 'message-refused'; method: string; stype: string; stepId?: number; error: MplError }
  /** The executor's reasoning about the plan was decided (recorded or not, see the next event). */
  | { type: 'reasoning-decided'; reasoning: ReasoningPayload }
  /** A step begins: one invocation, in which the tool may run up to `maxAttempts` times. */
  | { type: 'step-started'; stepId: number; tool: string; maxAttempts: number }
  /**
   * An attempt failed with a retryable error and, under the `retry` strategy, the MTPX
   * executor runs the tool again after `delayMs`, within the same invocation.
   */
  | {
      type: 'tool-retried';
      stepId: number;
      tool: string;
      /** The attempt that failed (1 for the first). */
      attempt: number;
      maxAttempts: number;
      delayMs: number;
      error: string;
    }
  /** The tool is done for this invocation: its final result, after every attempt. */
  | {
      type: 'tool-finished';
      stepId: number;
      result: ToolResult;
      /** How many times the tool ran. */
      attempts: number;
      /** From the first attempt's start to the end of the last, retry waits included. */
      durationMs: number;
    }
  /** A step's failure remained (after any retries): the failure strategy decided what follows. */
  | {
      type: 'strategy-applied';
      stepId: number;
      strategy: FailureStrategy;
      action: 'skip' | 'abort';
      /** How many times the tool ran (0 when the proxy refused the invocation). */
      attempts: number;
      maxAttempts: number;
      reason: string;
    }
  /** A step did not run: a step it needs did not succeed, or the plan was aborted. */
  | { type: 'step-not-run'; stepId: number; tool: string; reason: string };
