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
import { type CachedResult, cacheKey } from '../cache/result-cache';
import { errorMessage, isRetryableError, ToolExecutionError } from '../errors';
import { type CallNode, isDone } from '../run/call-node';
import { timeoutMessage } from '../run/execution-messages';
import type { AnyTool } from '../tools/toolkit';
import { waitForApproval } from './call-approval';
import type { CallHost } from './call-host';
import { invoke } from './call-invocation';
import { isPromiseLike } from './promise-like';
import { errorResult, isoNow, mediaOf, successResult } from './tool-results';
import { unknownToolMessage } from './unknown-tool';
import { outputOutOfBounds } from './value-limits';

/**
 * Runs one dispatched call to its result: arguments error from the provider → resolve
 * `$ref`s → find the tool (loading its toolkit) → validate → join an identical call →
 * policy (and approval) → cache → invoke with time limit and retries → cache the output.
 * Every model mistake ends as an error result; nothing escapes. After each wait it
 * checks whether the run cancelled the call meanwhile.
 */
export async function runCall(run: CallHost, node: CallNode): Promise<void> {
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

async function pipeline(run: CallHost, node: CallNode): Promise<void> {
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
    const outcome = await waitForApproval(run, node, tool, call, args);
    if (isDone(node)) return;
    if (outcome.kind === 'pending') return run.leavePending(node, outcome.request);
    if (outcome.kind === 'refused') {
      return run.complete(
        node,
        errorResult(node, outcome.code, outcome.message, { skipped: true, approval }),
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
    const code = ToolExecutionError.isInstance(error) ? error.errorCode : 'tool_error';
    const result = errorResult(node, code, errorMessage(error), { approval });
    if (isRetryableError(error)) result.retryable = true;
    return run.complete(node, result);
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

/** Completes a call with an error result. */
function fail(
  run: CallHost,
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

function cacheFailed(
  run: CallHost,
  node: CallNode,
  operation: 'get' | 'set',
  error: unknown,
): void {
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

/** The parse error a provider kept on a call whose arguments text was unusable. */
function argumentsErrorOf(input: unknown): string | undefined {
  if (!isJsonObject(input)) return undefined;
  const error = input.arguments_error;
  return typeof error === 'string' && error !== '' ? error : undefined;
}
