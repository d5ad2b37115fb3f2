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
  /** An attempt at a step begins. */
  | { type: 'step-started'; stepId: number; tool: string; attempt: number; maxAttempts: number }
  /** The tool ran (or failed) for one attempt. */
  | {
      type: 'tool-finished';
      stepId: number;
      attempt: number;
      result: ToolResult;
      durationMs: number;
    }
  /** A step failed and the failure strategy decided what happens next. */
  | {
      type: 'strategy-applied';
      stepId: number;
      strategy: FailureStrategy;
      action: 'retry' | 'skip' | 'abort';
      attempt: number;
      maxAttempts: number;
      reason: string;
    }
  /** A step did not run: a step it needs did not succeed, or the plan was aborted. */
  | { type: 'step-not-run'; stepId: number; tool: string; reason: string };
