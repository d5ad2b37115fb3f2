import {
  type Approval,
  canonicalJson,
  isJsonObject,
  isToolOutput,
  type JsonObject,
  type JsonValue,
  type MediaLists,
  resolveReferences,
  type ToolCall,
  type ToolErrorCode,
  type ToolResult,
} from '@mtpx/protocol';
import { type CallNode, CallState } from '../run/call-node';
import { errorMessage, ToolExecutionError } from '../errors';
import type { Run } from '../run/plan-execution';
import { isPromiseLike } from './promise-like';
import { type CachedResult, cacheKey } from '../cache/result-cache';
import { retryDelay } from './retry-backoff';
import { timeoutMessage } from '../run/execution-messages';
import { CallContext } from './tool-context';
import { errorResult, isoNow, mediaOf, successResult } from './tool-results';
import type { AnyTool } from '../tools/toolkit';
import { unknownToolMessage } from './unknown-tool';
import { outputOutOfBounds } from './value-limits';

type Outcome =
  | { kind: 'ok'; value: unknown }
  | { kind: 'error'; error: unknown }
  | { kind: 'timeout'; timeoutMs: number };

/**
 * Runs one dispatched call to its result: arguments error from the provider → resolve
 * `$ref`s → find the tool (loading its toolkit) → validate → join an identical call →
 * policy (and approval) → cache → invoke with time limit and retries → cache the output.
 * Every model mistake ends as an error result; nothing escapes. After each wait it
 * checks whether the run cancelled the call meanwhile.
 */
export async function runCall(run: Run, node: CallNode): Promise<void> {
  try {
    await pipeline(run, node);
  } catch (error) {
    run.complete(
      node,
      errorResult(
        node,
        'tool_error',
        `The executor failed while running this call: ${errorMessage(error)}`,
      ),
    );
  }
}

async function pipeline(run: Run, node: CallNode): Promise<void> {
  const services = run.services;
  const call = node.call as ToolCall;
  if (isDone(node)) return; // cancelled by a `call-started` handler

  const argumentsError = argumentsErrorOf(node.input);
  if (argumentsError !== undefined) {
    return fail(
      run,
      node,
      'invalid_arguments',
      `Invalid arguments for "${node.toolName}": ${argumentsError}`,
    );
  }
  let args: JsonObject = call.arguments;
  if (node.hasReferences) {
    const resolved = resolveReferences(args, run.outputOf);
    if (!resolved.ok) return fail(run, node, 'invalid_arguments', resolved.error.message);
    args = resolved.value as JsonObject;
  }

  let tool: AnyTool | undefined;
  try {
    tool = services.registry.get(node.toolName) ?? (await services.registry.resolve(node.toolName));
  } catch (error) {
    return fail(run, node, 'tool_error', errorMessage(error));
  }
  if (isDone(node)) return;
  if (tool === undefined)
    return fail(run, node, 'unknown_tool', unknownToolMessage(services.registry, node.toolName));

  const check = services.validator.check(tool, args);
  if (!check.ok)
    return fail(run, node, check.schemaError ? 'tool_error' : 'invalid_arguments', check.message);

  const cache = services.cache;
  const ttl = cache === undefined ? 0 : (tool.cache_ttl_seconds ?? 0);
  let key: string | undefined;
  if (services.dedupe || ttl > 0) {
    const canonical = canonicalJson(args);
    if (canonical !== undefined) {
      if (services.dedupe && run.joinIdentical(tool, canonical, node)) return;
      if (ttl > 0) key = cacheKey(tool.name, canonical);
    }
  }

  const approval = services.policy.decide(tool, call);
  if (approval === 'deny') {
    return run.complete(
      node,
      errorResult(
        node,
        'denied',
        `Policy denies "${tool.name}" (risk level ${tool.risk_level}); it was not run.`,
        {
          skipped: true,
          approval,
        },
      ),
    );
  }
  if (approval === 'ask') {
    const refusal = await waitForApproval(run, node, tool, call, args);
    if (isDone(node)) return;
    if (refusal !== undefined) {
      return run.complete(
        node,
        errorResult(node, refusal.code, refusal.message, { skipped: true, approval }),
      );
    }
  }

  if (ttl > 0 && key !== undefined && cache !== undefined) {
    let hit: CachedResult | undefined;
    try {
      const found = cache.get(key);
      hit = isPromiseLike<CachedResult | undefined>(found) ? await found : found;
    } catch (error) {
      cacheFailed(run, node, 'get', error);
    }
    if (isDone(node)) return;
    if (hit !== undefined) return run.complete(node, cachedResult(node, hit, approval));
  }

  const outcome = await invoke(run, node, tool, check.value, call, args);
  if (outcome === undefined || isDone(node)) return; // cancelled meanwhile
  if (outcome.kind === 'timeout')
    return fail(run, node, 'timeout', timeoutMessage(outcome.timeoutMs), approval);
  if (outcome.kind === 'error') {
    const { error } = outcome;
    if (ToolExecutionError.isInstance(error))
      return fail(run, node, error.errorCode, error.message, approval);
    return fail(run, node, 'tool_error', errorMessage(error), approval);
  }

  const outOfBounds = outputOutOfBounds(outcome.value, services.limits);
  if (outOfBounds !== undefined) return fail(run, node, 'tool_error', outOfBounds, approval);
  let output: JsonValue;
  let media: MediaLists | undefined;
  if (isToolOutput(outcome.value)) {
    output = outcome.value.content ?? null;
    media = mediaOf(outcome.value);
  } else {
    output = outcome.value === undefined ? null : (outcome.value as JsonValue);
  }
  const expiresAt =
    ttl > 0 && key !== undefined ? new Date(Date.now() + ttl * 1000).toISOString() : undefined;
  const result = successResult(node, output, media, approval, expiresAt);
  if (expiresAt !== undefined && key !== undefined && cache !== undefined) {
    const entry: CachedResult = {
      output,
      ...media,
      created_at: result.created_at,
      expires_at: expiresAt,
    };
    try {
      const stored = cache.set(key, entry, ttl);
      if (isPromiseLike(stored))
        stored.then(undefined, (error: unknown) => cacheFailed(run, node, 'set', error));
    } catch (error) {
      cacheFailed(run, node, 'set', error);
    }
  }
  run.complete(node, result);
}

/**
 * Asks the approver with the call suspended: its concurrency slot goes to other calls
 * while a person decides, only its dependents wait, and the wait is reported
 * (`approval-requested` / `approval-resolved`) and kept out of the call's duration.
 */
async function waitForApproval(
  run: Run,
  node: CallNode,
  tool: AnyTool,
  call: ToolCall,
  args: JsonObject,
): Promise<{ code: 'approval_required' | 'denied'; message: string } | undefined> {
  const askedAt = performance.now();
  if (run.listening) {
    run.emit({
      type: 'approval-requested',
      at: run.now(),
      callId: node.id,
      toolName: node.toolName,
    });
  }
  run.suspend(node);
  const refusal = await askApproval(run, tool, call, args);
  const waitMs = performance.now() - askedAt;
  node.approvalMs += waitMs;
  if (run.listening && !isDone(node)) {
    run.emit({
      type: 'approval-resolved',
      at: run.now(),
      callId: node.id,
      toolName: node.toolName,
      approved: refusal === undefined,
      waitMs,
    });
  }
  const slot = run.resume(node);
  if (slot !== undefined) await slot;
  return refusal;
}

/** `undefined` when approved, else why not. */
async function askApproval(
  run: Run,
  tool: AnyTool,
  call: ToolCall,
  args: JsonObject,
): Promise<{ code: 'approval_required' | 'denied'; message: string } | undefined> {
  const approve = run.services.approve;
  if (approve === undefined) {
    return {
      code: 'approval_required',
      message: `"${tool.name}" (risk level ${tool.risk_level}) needs approval and no approver is configured; it was not run.`,
    };
  }
  try {
    const approved = await approve(tool, call, args, { signal: run.signal });
    if (approved === true) return undefined;
    return { code: 'denied', message: `The approver declined "${tool.name}"; it was not run.` };
  } catch (error) {
    return {
      code: 'approval_required',
      message: `"${tool.name}" needs approval, but the approval handler failed (${errorMessage(error)}); it was not run.`,
    };
  }
}

/** Runs the tool, retrying retryable failures with backoff; `undefined` when cancelled meanwhile. */
async function invoke(
  run: Run,
  node: CallNode,
  tool: AnyTool,
  args: unknown,
  call: ToolCall,
  resolvedArgs: JsonObject,
): Promise<Outcome | undefined> {
  const attempts = 1 + (tool.retries ?? 0);
  const timeoutMs = tool.timeout_ms ?? run.services.timeoutMs;
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
  run: Run,
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

/** Completes a call with an error result. */
function fail(
  run: Run,
  node: CallNode,
  code: ToolErrorCode,
  message: string,
  approval?: Approval,
): void {
  run.complete(node, errorResult(node, code, message, approval === undefined ? {} : { approval }));
}

function cachedResult(node: CallNode, hit: CachedResult, approval: Approval): ToolResult {
  const result = successResult(node, hit.output, mediaOf(hit), approval, hit.expires_at);
  result.cached = true;
  result.created_at = hit.created_at ?? isoNow();
  return result;
}

function cacheFailed(run: Run, node: CallNode, operation: 'get' | 'set', error: unknown): void {
  if (!run.listening) return;
  run.emit({
    type: 'cache-failed',
    at: run.now(),
    callId: node.id,
    toolName: node.toolName,
    operation,
    error: errorMessage(error),
  });
}

/**
 * True once the call has its result — after a wait, because the run was cancelled
 * meanwhile. (A function, so TypeScript does not narrow the state across awaits.)
 */
function isDone(node: CallNode): boolean {
  return node.state === CallState.Done;
}

/** The parse error a provider kept on a call whose arguments text was unusable. */
function argumentsErrorOf(input: unknown): string | undefined {
  if (!isJsonObject(input)) return undefined;
  const error = input.arguments_error;
  return typeof error === 'string' && error !== '' ? error : undefined;
}
