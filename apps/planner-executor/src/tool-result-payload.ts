import type { ToolResultPayload } from '@mtpx/mpl';
import type { JsonObject, JsonValue, ToolResult } from '@mtpx/protocol';

/** What the tool did within one invocation. */
export interface ToolRun {
  /** How many times it ran (0 when it never started). */
  attempts: number;
  /** The code its last failure gave (`unavailable`, …; `tool_error` for a plain error). */
  failureCode?: string;
}

function asObject(value: JsonValue): JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : { value };
}

/**
 * An executor result as the tutorial's `org.agent.ToolResult.v1`: `durationMs` covers
 * every attempt (and the waits between them); a failure after retries says how many
 * attempts were made in `error.attempts` (the SType leaves `error` open for such detail).
 */
export function toResultPayload(
  invocationId: string,
  result: ToolResult,
  run: ToolRun & { durationMs: number },
): ToolResultPayload {
  const payload: ToolResultPayload = {
    invocationId,
    status: result.success ? 'success' : result.error_code === 'timeout' ? 'timeout' : 'error',
    result: result.success ? asObject(result.output) : {},
    durationMs: Math.max(0, Math.round(run.durationMs)),
  };
  if (!result.success)
    payload.error = {
      code: errorCodeOf(result, run.failureCode),
      message: result.error ?? 'The tool failed.',
      ...(run.attempts > 1 ? { attempts: run.attempts } : {}),
    };
  return payload;
}

/** `TOOL_TIMEOUT`, `TOOL_UNAVAILABLE`, `INVALID_ARGUMENTS`, …: the tutorial's upper-case codes. */
function errorCodeOf(result: ToolResult, toolCode: string | undefined): string {
  if (result.error_code === 'timeout') return 'TOOL_TIMEOUT';
  const code = (toolCode ?? result.error_code ?? 'tool_error').toUpperCase();
  return result.error_code === 'tool_error' && !code.startsWith('TOOL_') ? `TOOL_${code}` : code;
}
