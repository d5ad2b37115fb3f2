import type { Approval, JsonValue, MediaLists, ToolErrorCode, ToolResult } from '@mtpx/protocol';

let lastMillis = Number.NaN;
let lastIso = '';

/** The current time as ISO 8601; formatted at most once per millisecond. */
export function isoNow(): string {
  const millis = Date.now();
  if (millis !== lastMillis) {
    lastMillis = millis;
    lastIso = new Date(millis).toISOString();
  }
  return lastIso;
}

/** What identifies a result: the call's id and tool. */
export interface ResultTarget {
  id: string;
  toolName: string;
}

/** A successful result. */
export function successResult(
  target: ResultTarget,
  output: JsonValue,
  media: MediaLists | undefined,
  approval: Approval | undefined,
  expiresAt: string | undefined,
): ToolResult {
  const result: ToolResult = {
    call_id: target.id,
    tool_name: target.toolName,
    output,
    success: true,
    cached: false,
    skipped: false,
    created_at: isoNow(),
  };
  if (approval !== undefined) result.approval = approval;
  if (expiresAt !== undefined) result.expires_at = expiresAt;
  if (media !== undefined) Object.assign(result, media);
  return result;
}

/** A failed (or skipped) result. */
export function errorResult(
  target: ResultTarget,
  errorCode: ToolErrorCode,
  error: string,
  options: { skipped?: boolean; approval?: Approval } = {},
): ToolResult {
  const result: ToolResult = {
    call_id: target.id,
    tool_name: target.toolName,
    output: null,
    success: false,
    error,
    error_code: errorCode,
    cached: false,
    skipped: options.skipped ?? false,
    created_at: isoNow(),
  };
  if (options.approval !== undefined) result.approval = options.approval;
  return result;
}

/** A copy of another call's result for an identical call (flagged `cached`). */
export function copiedResult(target: ResultTarget, source: ToolResult): ToolResult {
  return { ...source, call_id: target.id, tool_name: target.toolName, cached: true };
}

/** The media lists of a ToolOutput, or `undefined` when it has none. */
export function mediaOf(output: MediaLists): MediaLists | undefined {
  let media: MediaLists | undefined;
  for (const key of ['images', 'videos', 'audios', 'files'] as const) {
    const list = output[key];
    if (list !== undefined && list.length > 0) {
      media ??= {};
      (media as Record<string, unknown>)[key] = list;
    }
  }
  return media;
}
