import type { ToolCall } from '@mtpx/protocol';
import type { AnyTool } from '../tools/toolkit';

/**
 * True when a call to `tool` may start before the response that made it has finished:
 * the tool says so (`eager`), or, by default, it is `read_only`. A tool that is not
 * loaded waits.
 *
 * @internal
 */
export function startsEarly(tool: AnyTool | undefined): boolean {
  if (tool === undefined) return false; // unknown (or not loaded yet): it waits
  if (tool.eager !== undefined) return tool.eager;
  return (tool.risk_level ?? 'read_only') === 'read_only';
}

/**
 * The hold rule of safe eager dispatch (a {@link @mtpx/executor!HoldRule | HoldRule}): calls to tools that change
 * things (`write`, `destructive`, unless defined with `eager: true`) and calls to tools
 * not loaded are held until the response that made them has finished; read-only calls
 * start at once. Calls that depend on a held call are held by the execution itself.
 *
 * @example
 * ```ts source="./side-effect-hold.examples.ts#hold"
 * const execution = executor.start({ hold: holdSideEffects });
 * // Read-only calls start as soon as they are added; write calls wait (`call-held`).
 * execution.add({ id: 'call_1', name: 'notes.append', arguments: { line: 'paid' } });
 * if (finishReason === 'tool_calls' || finishReason === 'stop') execution.release();
 * else execution.dropHeld(`Not run: the response did not finish (${finishReason}).`);
 * execution.end();
 * ```
 */
export function holdSideEffects(call: ToolCall, tool: AnyTool | undefined): string | undefined {
  if (startsEarly(tool)) return undefined;
  return tool === undefined
    ? `no loaded tool is named "${call.name}"`
    : `risk level ${tool.risk_level ?? 'read_only'}`;
}
