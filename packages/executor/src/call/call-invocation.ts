import type { JsonObject, ToolCall } from '@mtpx/protocol';
import { ToolExecutionError } from '../errors';
import { type CallNode, isDone } from '../run/call-node';
import { timeoutMessage } from '../run/execution-messages';
import { timeLimitOf } from '../tools/define-tool';
import type { AnyTool } from '../tools/toolkit';
import type { CallHost } from './call-host';
import { isPromiseLike } from './promise-like';
import { retryDelay } from './retry-backoff';
import { CallContext } from './tool-context';

/** How one invocation of a tool ended. */
export type Outcome =
  | { kind: 'ok'; value: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout'; timeoutMs: number };

/** Runs the tool, retrying retryable failures with backoff; `undefined` when cancelled meanwhile. */
export async function invoke(
  run: CallHost,
  node: CallNode,
  tool: AnyTool,
  args: unknown,
  call: ToolCall,
  resolvedArgs: JsonObject,
): Promise<Outcome | undefined> {
  const attempts = 1 + (tool.retries ?? 0);
  const timeoutMs = timeLimitOf(tool) ?? run.services.timeoutMs;
  if (attempts === 1 && timeoutMs === undefined) {
    // The common case: one attempt, no timer — no retry loop, no extra promise.
    try {
      const context = new CallContext(run, node, call, 1, undefined, resolvedArgs);
      const value = tool.execute(args as never, context);
      return { kind: 'ok', value: isPromiseLike(value) ? await value : value };
    } catch (error) {
      return { kind: 'error', error };
    }
  }
  for (let attempt = 1; ; attempt++) {
    if (isDone(node)) return undefined; // never start work (or a timer) for a cancelled call
    const outcome = await attemptOnce(
      run,
      node,
      tool,
      args,
      call,
      resolvedArgs,
      attempt,
      timeoutMs,
    );
    if (isDone(node)) return undefined;
    if (outcome.kind !== 'error' || attempt >= attempts) return outcome;
    const { error } = outcome;
    if (!ToolExecutionError.isInstance(error) || !error.retryable) return outcome;
    const delayMs = retryDelay(run.services.retryBackoff, attempt, error.retryAfterMs);
    if (run.listening) {
      run.emit({
        type: 'call-retried',
        at: run.now(),
        callId: node.id,
        toolName: node.toolName,
        attempt,
        delayMs,
        error: error.message,
      });
    }
    await backoff(node, delayMs);
  }
}

/** One attempt. Sync tools finish without a promise; async ones race their time limit. */
function attemptOnce(
  run: CallHost,
  node: CallNode,
  tool: AnyTool,
  args: unknown,
  call: ToolCall,
  resolvedArgs: JsonObject,
  attempt: number,
  timeoutMs: number | undefined,
): Outcome | Promise<Outcome> {
  let controller: AbortController | undefined;
  if (timeoutMs !== undefined) {
    controller = new AbortController();
    node.controller = controller;
  }
  const context = new CallContext(run, node, call, attempt, controller, resolvedArgs);
  let value: unknown;
  try {
    value = tool.execute(args as never, context);
  } catch (error) {
    node.controller = undefined;
    return { kind: 'error', error };
  }
  if (!isPromiseLike(value)) {
    node.controller = undefined;
    return { kind: 'ok', value };
  }
  if (controller === undefined || timeoutMs === undefined) {
    return Promise.resolve(value).then(
      (resolved): Outcome => ({ kind: 'ok', value: resolved }),
      (error: unknown): Outcome => ({ kind: 'error', error }),
    );
  }
  const limit = timeoutMs;
  const ownController = controller;
  return new Promise<Outcome>((resolve) => {
    const timer = setTimeout(() => {
      if (node.timer === timer) node.timer = undefined;
      ownController.abort(new DOMException(timeoutMessage(limit), 'TimeoutError'));
      resolve({ kind: 'timeout', timeoutMs: limit });
    }, limit);
    node.timer = timer;
    const settle = (outcome: Outcome) => {
      clearTimeout(timer);
      if (node.timer === timer) node.timer = undefined;
      if (node.controller === ownController) node.controller = undefined;
      resolve(outcome);
    };
    Promise.resolve(value).then(
      (resolved) => settle({ kind: 'ok', value: resolved }),
      (error: unknown) => settle({ kind: 'error', error }),
    );
  });
}

/** Waits `delayMs` before a retry; cancellation (which calls `node.wake`) ends it early. */
function backoff(node: CallNode, delayMs: number): Promise<void> {
  if (isDone(node)) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(node.timer);
      node.timer = undefined;
      node.wake = undefined;
      resolve();
    };
    node.wake = wake;
    node.timer = setTimeout(wake, delayMs);
  });
}
