import type { JsonObject } from '@mtpx/protocol';
import type { ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { z } from 'zod';
import { describeProblems, formatAjvErrors, formatZodIssues } from './argument-errors';
import type { AnyTool } from './toolkit';

/** The arguments a tool runs with, or why they are rejected. */
export type ArgumentCheck =
  | { ok: true; value: unknown }
  | { ok: false; message: string; schemaError?: boolean };

/**
 * Checks call arguments against each tool's input schema. A JSON Schema is compiled once
 * per tool (on its first call) by Ajv in JSON Schema 2020-12 mode with `allErrors`, so
 * every failing path is named; a zod schema parses the arguments itself (its defaults and
 * transforms apply). One instance per executor, so compiled schemas go with it.
 */
export class ArgumentValidator {
  #ajv: Ajv2020 | undefined;
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
      this.#ajv ??= createAjv();
      try {
        validate = this.#ajv.compile(tool.input_schema);
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

function createAjv(): Ajv2020 {
  // `strict: false`: schemas come from tool authors and MCP servers and may carry
  // keywords Ajv does not know; they are ignored rather than refused. No coercion, no
  // defaults: the model must send the right types, and its arguments are never modified.
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false, coerceTypes: false });
  addFormats(ajv);
  return ajv;
}
