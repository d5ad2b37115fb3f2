import type { JsonObject } from '@mtpx/protocol';
import type { ValidateFunction } from 'ajv';
import { z } from 'zod';
import type { AnyTool } from '../tools/toolkit';
import { describeProblems, formatAjvErrors, formatZodIssues } from './argument-errors';
import { DialectCompiler } from './schema-dialects';

/**
 * The arguments a tool runs with, or why they are rejected.
 *
 * @internal
 */
export type ArgumentCheck =
  | { ok: true; value: unknown }
  | { ok: false; message: string; schemaError?: boolean };

/**
 * Checks call arguments against each tool's input schema. A JSON Schema is compiled once
 * per tool (on its first call) by Ajv with `allErrors`, so every failing path is named, in
 * the dialect its `$schema` declares (draft-07, 2019-09 or 2020-12; 2020-12 when it
 * declares none or an unknown one); a zod schema parses the arguments itself (its defaults
 * and transforms apply). One instance per executor, so compiled schemas go with it.
 *
 * @internal
 */
export class ArgumentValidator {
  readonly #compiler = new DialectCompiler();
  readonly #compiled = new WeakMap<AnyTool, ValidateFunction | Error>();

  /** The arguments `tool` should run with, or a message naming each failing path. */
  check(tool: AnyTool, args: JsonObject): ArgumentCheck {
    if (tool.zodSchema !== undefined) {
      const parsed = z.safeParse(tool.zodSchema, args);
      if (parsed.success) return { ok: true, value: parsed.data };
      return rejected(tool, formatZodIssues(parsed.error.issues, args));
    }
    const validate = this.#validatorFor(tool);
    if (validate instanceof Error) {
      return {
        ok: false,
        schemaError: true,
        message: `The tool "${tool.name}" has an invalid input schema, so it cannot be called: ${validate.message}`,
      };
    }
    if (validate(args)) return { ok: true, value: args };
    return rejected(tool, formatAjvErrors(validate.errors ?? []));
  }

  #validatorFor(tool: AnyTool): ValidateFunction | Error {
    let validate = this.#compiled.get(tool);
    if (validate === undefined) {
      try {
        validate = this.#compiler.compile(tool.input_schema);
      } catch (error) {
        validate = error instanceof Error ? error : new Error(String(error));
      }
      this.#compiled.set(tool, validate);
    }
    return validate;
  }
}

function rejected(tool: AnyTool, problems: string[]): ArgumentCheck {
  return {
    ok: false,
    message: `Invalid arguments for "${tool.name}": ${describeProblems(problems)}.`,
  };
}
