import { type AssistantToolCall, isJsonObject } from '@mtpx/protocol';
import { DEFAULT_JSON_MAX_DEPTH, measureJson } from '@mtpx/protocol/internal';
import { ExecutorError } from '../errors';

/**
 * Bounds on what a model sends and what a tool returns. Every value is measured by an
 * iterative walk before anything recursive touches it, so no deep or cyclic value can
 * overflow the stack: a call past a limit is answered `invalid_arguments` and never runs;
 * an output past a limit becomes a `tool_error` result.
 */
export interface ValueLimits {
  /** Most nesting levels of a call's arguments and of a tool's output. Default 64. */
  maxDepth?: number;
  /** Largest arguments of one call, in bytes of JSON text. Default 4 MiB. */
  maxArgumentBytes?: number;
  /** Largest output of one call, in bytes of JSON text. Default 16 MiB. */
  maxOutputBytes?: number;
}

/** {@link ValueLimits} with every default applied (internal). */
export interface ResolvedValueLimits {
  readonly maxDepth: number;
  readonly maxArgumentBytes: number;
  readonly maxOutputBytes: number;
}

/**
 * The limits used when none are given.
 *
 * @internal
 */
export const DEFAULT_VALUE_LIMITS: ResolvedValueLimits = {
  maxDepth: DEFAULT_JSON_MAX_DEPTH,
  maxArgumentBytes: 4 * 1024 * 1024,
  maxOutputBytes: 16 * 1024 * 1024,
};

/** Checks and fills in `limits` (internal). */
export function resolveValueLimits(limits: ValueLimits | undefined): ResolvedValueLimits {
  const resolved = { ...DEFAULT_VALUE_LIMITS, ...limits };
  for (const key of ['maxDepth', 'maxArgumentBytes', 'maxOutputBytes'] as const) {
    const value = resolved[key];
    if (!(value === Number.POSITIVE_INFINITY || (Number.isInteger(value) && value >= 1))) {
      throw new ExecutorError({
        code: 'invalid_option',
        message: `limits.${key} must be a positive integer (or Infinity), got ${String(value)}.`,
      });
    }
  }
  return resolved;
}

/**
 * Why an untrusted call (as given to the executor) is out of bounds, or `undefined`: its
 * `arguments` past the depth or size limit (or holding what JSON cannot carry), or a
 * `depends_on` that is not a short flat list. Shape problems are left to validation.
 *
 * @internal
 */
export function callOutOfBounds(
  call: unknown,
  limits: ResolvedValueLimits = DEFAULT_VALUE_LIMITS,
): string | undefined {
  if (!isJsonObject(call)) return undefined;
  const args = measureJson(call.arguments ?? {}, {
    maxDepth: limits.maxDepth,
    maxBytes: limits.maxArgumentBytes,
  });
  if (!args.ok) {
    return `The arguments cannot be used: ${args.message}; send smaller, flatter arguments.`;
  }
  const dependsOn = measureJson(call.depends_on ?? [], { maxDepth: 1, maxBytes: 64 * 1024 });
  if (!dependsOn.ok) {
    return `"depends_on" cannot be used: ${dependsOn.message}; list the ids of the calls this one needs.`;
  }
  return undefined;
}

/**
 * Why a tool's output is out of bounds, or `undefined`.
 *
 * @internal
 */
export function outputOutOfBounds(
  output: unknown,
  limits: ResolvedValueLimits = DEFAULT_VALUE_LIMITS,
): string | undefined {
  const measured = measureJson(output, {
    maxDepth: limits.maxDepth,
    maxBytes: limits.maxOutputBytes,
  });
  return measured.ok ? undefined : `The tool's output cannot be used: ${measured.message}.`;
}

/** The id and name of an out-of-bounds call, without its arguments, so it can be answered (internal). */
export function standInFor(input: unknown): { id?: string; name?: string; arguments: object } {
  const call = input as { id?: unknown; name?: unknown };
  return {
    ...(typeof call.id === 'string' ? { id: call.id } : {}),
    ...(typeof call.name === 'string' ? { name: call.name } : {}),
    arguments: {},
  };
}

/**
 * A model's call as a caller may keep and pass on (internal; the agent keeps it in the
 * conversation): the call itself when it is within `limits`, otherwise a stand-in with
 * the same id and name, no arguments, and an `arguments_error` saying why — which the
 * executor answers `invalid_arguments` without running anything. Checked by the same
 * iterative walk as every call the executor is given, so the two can never disagree.
 *
 * @internal
 */
export function boundedToolCall(
  call: AssistantToolCall,
  limits: ResolvedValueLimits = DEFAULT_VALUE_LIMITS,
): AssistantToolCall {
  const problem = callOutOfBounds(call, limits);
  if (problem === undefined) return call;
  const standIn = standInFor(typeof call === 'object' && call !== null ? call : {});
  return {
    id: standIn.id ?? '',
    name: standIn.name ?? '',
    arguments: {},
    depends_on: [],
    arguments_error: problem,
  };
}
