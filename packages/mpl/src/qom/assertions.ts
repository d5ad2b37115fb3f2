import { createRequire } from 'node:module';
import type * as CelModule from '@bufbuild/cel';
import type { CelEnv, CelInput, CelValue } from '@bufbuild/cel';
import type * as CelExtensions from '@bufbuild/cel/ext';
import type { JsonValue } from '@mtpx/protocol';
import { z } from 'zod';
import { RegistryError } from '../errors';
import { type CelAstExpr, CelEvalError, compileCel, isTruthyJson } from './cel-compile';

/** How much an assertion matters: `error` counts against the message, the others inform. */
export type AssertionSeverity = 'error' | 'warning' | 'info';

/** One assertion as `assertions.json` writes it: a CEL expression that must be truthy. */
export interface AssertionDefinition {
  id: string;
  /** CEL over `payload`, and `args`, `response`, `stype`, `tool`, `metadata` when a context is given. */
  expression: string;
  /** Shown when the assertion fails. */
  message: string;
  severity: AssertionSeverity;
  tags: string[];
}

/** The contents of an `assertions.json` file, as the reference registry writes it. */
export interface AssertionSetDefinition {
  name: string;
  description: string;
  assertions: AssertionDefinition[];
  /** Stop at the first failed error-severity assertion (the denominator stays the full count). */
  fail_fast: boolean;
}

/** The zod schema of an `assertions.json` file (unknown members such as `$schema` are ignored). */
export const AssertionSetDefinitionSchema = z.object({
  name: z.string().default(''),
  description: z.string().default(''),
  assertions: z.array(
    z.object({
      id: z.string().min(1),
      expression: z.string().min(1),
      message: z.string().default(''),
      severity: z.enum(['error', 'warning', 'info']).default('error'),
      tags: z.array(z.string()).default([]),
    }),
  ),
  fail_fast: z.boolean().default(false),
});

/**
 * What assertions may read besides `payload`. Any member given is bound as a CEL variable.
 */
export interface AssertionContext {
  args?: JsonValue;
  response?: JsonValue;
  stype?: string;
  tool?: string;
  metadata?: { [key: string]: JsonValue };
}

/** The outcome of one assertion. */
export interface AssertionResult {
  id: string;
  passed: boolean;
  severity: AssertionSeverity;
  message: string;
  /** Why evaluation failed (a missing field read without `has()`, a type error, …). */
  error?: string;
}

/** The outcome of an assertion set: each result, the counts, and instruction compliance. */
export interface AssertionReport {
  results: AssertionResult[];
  passed: number;
  failed: number;
  /** Failed assertions of severity `error`. */
  errors: number;
  /** Assertions not evaluated because `fail_fast` stopped early. */
  skipped: number;
  /** Instruction compliance: passed ÷ number of assertions (1 when there are none). */
  instructionCompliance: number;
}

type Program = (bindings: Record<string, CelInput>) => unknown;

interface CompiledAssertion extends AssertionDefinition {
  program: Program;
  /** The expression compiled to a function of plain JSON values, when it is in the subset. */
  fast: ((variables: Record<string, unknown>) => unknown) | undefined;
}

/** An assertion set whose CEL expressions are compiled, ready to evaluate many times. */
export interface CompiledAssertionSet {
  readonly definition: AssertionSetDefinition;
  /** Evaluates every assertion against a payload (and optional context). Never throws. */
  evaluate(payload: JsonValue, context?: AssertionContext): AssertionReport;
}

/** @bufbuild/cel and the environment every assertion is planned in. */
interface CelRuntime {
  readonly cel: typeof CelModule;
  readonly environment: CelEnv;
}

let celRuntime: CelRuntime | undefined;

/**
 * @bufbuild/cel, loaded when the first assertion set is compiled: with protobuf and re2 it
 * is about 150 modules and 1 MB, a fifth of a second of CPU at every process start, which
 * importing `@mtpx/mpl` need not pay unless it compiles CEL (a process that only hashes,
 * validates or records). Loaded with `require` (its CommonJS build) so that compiling stays
 * synchronous; nothing else here loads it, so every CEL value comes from that one copy.
 */
function loadCel(): CelRuntime {
  if (celRuntime === undefined) {
    const require = createRequire(import.meta.url);
    const cel = require('@bufbuild/cel') as typeof CelModule;
    const { strings } = require('@bufbuild/cel/ext') as typeof CelExtensions;
    celRuntime = { cel, environment: cel.celEnv({ funcs: strings }) };
  }
  return celRuntime;
}

/**
 * A JSON value as CEL sees it: objects become maps, whole numbers `int` (as the reference
 * maps JSON integers), other numbers `double`.
 *
 * @internal
 */
export function toCelInput(value: JsonValue | undefined): CelInput {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(toCelInput);
  switch (typeof value) {
    case 'number':
      return Number.isSafeInteger(value) ? BigInt(value) : value;
    case 'object': {
      const map = new Map<string, CelInput>();
      for (const [key, member] of Object.entries(value)) map.set(key, toCelInput(member));
      return map;
    }
    default:
      return value;
  }
}

/** CEL truthiness as the reference defines it: false, null, 0 and empty strings, lists and maps fail. */
function isTruthy(value: CelValue, { isCelUint, isCelList, isCelMap }: typeof CelModule): boolean {
  if (value === null || value === false) return false;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value.length > 0;
  if (isCelUint(value)) return value.value !== 0n;
  if (isCelList(value) || isCelMap(value)) return value.size > 0;
  return true;
}

/**
 * Compiles an `assertions.json` set: each CEL expression is parsed and planned once.
 * Throws {@link RegistryError} naming the assertion whose expression does not parse.
 *
 * @example
 * ```ts source="./qom.examples.ts#compileAssertionSet"
 * const set = compileAssertionSet({
 *   assertions: [
 *     { id: 'positive', expression: 'payload.amount > 0', message: 'Amount must be positive' },
 *   ],
 * });
 * set.evaluate({ amount: 5 }).instructionCompliance; // 1
 * ```
 *
 * @internal
 */
export function compileAssertionSet(input: unknown, source = 'assertions'): CompiledAssertionSet {
  const parsed = AssertionSetDefinitionSchema.safeParse(input);
  if (!parsed.success)
    throw new RegistryError({
      message: `${source} is not an assertion set: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'} ${issue.message}`).join('; ')}`,
    });
  const definition: AssertionSetDefinition = parsed.data;
  const { cel, environment } = loadCel();
  const compiled: CompiledAssertion[] = definition.assertions.map((assertion) => {
    try {
      const parsed = cel.parse(assertion.expression);
      return {
        ...assertion,
        program: cel.plan(environment, parsed) as Program,
        fast: compileCel(parsed.expr as unknown as CelAstExpr),
      };
    } catch (cause) {
      throw new RegistryError({
        message: `${source}: the expression of assertion "${assertion.id}" is not valid CEL: ${cause instanceof Error ? cause.message : String(cause)}`,
        cause,
      });
    }
  });
  return {
    definition,
    evaluate(payload, context) {
      const variables: Record<string, unknown> = { payload };
      if (context) {
        if (context.args !== undefined) variables.args = context.args;
        if (context.response !== undefined) variables.response = context.response;
        if (context.stype !== undefined) variables.stype = context.stype;
        if (context.tool !== undefined) variables.tool = context.tool;
        variables.metadata = context.metadata ?? {};
      }
      // Converted for @bufbuild/cel only when an assertion outside the fast subset runs.
      let bindings: Record<string, CelInput> | undefined;
      const celBindings = () => {
        bindings ??= Object.fromEntries(
          Object.entries(variables).map(([name, value]) => [
            name,
            typeof value === 'string' ? value : toCelInput(value as JsonValue),
          ]),
        );
        return bindings;
      };
      const results: AssertionResult[] = [];
      let passed = 0;
      let errors = 0;
      for (const assertion of compiled) {
        const result = assertion.fast
          ? runFast(assertion, variables)
          : runAssertion(assertion, celBindings());
        results.push(result);
        if (result.passed) passed += 1;
        else if (assertion.severity === 'error') {
          errors += 1;
          if (definition.fail_fast) break;
        }
      }
      const total = compiled.length;
      return {
        results,
        passed,
        failed: results.length - passed,
        errors,
        skipped: total - results.length,
        instructionCompliance: total === 0 ? 1 : passed / total,
      };
    },
  };
}

function runFast(
  assertion: CompiledAssertion,
  variables: Record<string, unknown>,
): AssertionResult {
  const value = (assertion.fast as NonNullable<CompiledAssertion['fast']>)(variables);
  // One object literal of one shape per result: no spread, no copy of a base object.
  return value instanceof CelEvalError
    ? {
        id: assertion.id,
        passed: false,
        severity: assertion.severity,
        message: assertion.message,
        error: value.message,
      }
    : {
        id: assertion.id,
        passed: isTruthyJson(value),
        severity: assertion.severity,
        message: assertion.message,
      };
}

function runAssertion(
  assertion: CompiledAssertion,
  bindings: Record<string, CelInput>,
): AssertionResult {
  const base = { id: assertion.id, severity: assertion.severity, message: assertion.message };
  let value: unknown;
  try {
    value = assertion.program(bindings);
  } catch (cause) {
    return {
      ...base,
      passed: false,
      error: cause instanceof Error ? cause.message : String(cause),
    };
  }
  // The set was compiled, so @bufbuild/cel is loaded.
  const { cel } = loadCel();
  if (cel.isCelError(value)) return { ...base, passed: false, error: value.message };
  return { ...base, passed: isTruthy(value as CelValue, cel) };
}
