import { isJsonObject, type JsonValue } from '@mtpx/protocol';
import type { AnySchema, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type ErrorDetail, type MplErrorCode, RegistryError } from '../errors';
import { type CompiledAssertionSet, compileAssertionSet } from '../qom/assertions';
import { type CompiledOntology, compileOntology } from './ontology';
import {
  builtinSTypesDirectory,
  readSTypeDirectory,
  type STypeDefinition,
} from './registry-loader';
import { schemaErrorDetails } from './schema-errors';
import { parseSTypeId, type STypeId } from './stype-id';

/** How to build a registry from folders in the reference layout. */
export interface LoadRegistryOptions {
  /** Registry folders (a reference registry root, or its `stypes/` folder), loaded in order. */
  directories?: readonly string[];
  /** Include the STypes that ship with this package (default `true`); they load first. */
  builtins?: boolean;
}

/** The outcome of validating one payload against one schema. */
export interface SchemaValidation {
  valid: boolean;
  errors: ErrorDetail[];
}

/** The outcome of double validation: the message, then its `args` against `args_stype`. */
export interface MessageValidation extends SchemaValidation {
  /** Why it failed: the message's schema, its args' SType, or an unknown `args_stype`. */
  code?: Extract<MplErrorCode, 'E-SCHEMA-FIDELITY' | 'E-TOOL-ARG-COERCION' | 'E-UNKNOWN-STYPE'>;
  /** The `args_stype` the args were checked against, when there was one. */
  argsStype?: string;
}

/** A short description of a registered SType, as `GET /stypes` lists it. */
export interface STypeSummary {
  id: string;
  namespace: string;
  domain: string;
  name: string;
  version: number;
  title?: string;
  description?: string;
  /** Number of assertions in its `assertions.json` (0 when it has none). */
  assertions: number;
  examples: number;
  negatives: number;
}

interface Entry {
  definition: STypeDefinition;
  parsed: STypeId;
  validate: ValidateFunction;
  assertions: CompiledAssertionSet | undefined;
  ontology: CompiledOntology | undefined;
}

/**
 * The SType registry: schemas from folders in the reference on-disk layout (and the
 * built-in STypes), each compiled once with Ajv in JSON Schema 2020-12 mode with formats.
 * Every schema is registered under `urn:stype:<id>` (and its own `$id`), so schemas may
 * `$ref` each other. A later folder's definition of an id replaces an earlier one.
 *
 * @example
 * ```ts source="./registry.examples.ts#STypeRegistry"
 * const registry = await STypeRegistry.load();
 * registry.validate('org.agent.TaskPlan.v1', { goal: 'x' }).errors;
 * // [{ path: '/planId', message: 'is required', … }, { path: '/steps', … }]
 * ```
 */
export class STypeRegistry {
  readonly #entries = new Map<string, Entry>();
  /** Ids whose definition a later folder replaced. */
  readonly overridden: readonly string[];

  private constructor(definitions: readonly STypeDefinition[]) {
    const byId = new Map<string, STypeDefinition>();
    const overridden: string[] = [];
    for (const definition of definitions) {
      if (byId.has(definition.id)) overridden.push(definition.id);
      byId.set(definition.id, definition);
    }
    this.overridden = overridden;
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateSchema: true });
    addFormats(ajv);
    const parsedIds = new Map<string, STypeId>();
    for (const definition of byId.values()) {
      const parsed = parseSTypeId(definition.id);
      if (!parsed.ok) throw new RegistryError({ message: parsed.error.message });
      parsedIds.set(definition.id, parsed.value);
      try {
        ajv.addSchema(definition.schema as AnySchema, parsed.value.urn);
      } catch (cause) {
        throw new RegistryError({
          message: `The schema of ${definition.id}${where(definition)} is not a valid JSON Schema: ${messageOf(cause)}`,
          cause,
        });
      }
    }
    for (const definition of byId.values()) {
      const parsed = parsedIds.get(definition.id) as STypeId;
      let validate: ValidateFunction | undefined;
      try {
        validate = ajv.getSchema(parsed.urn);
      } catch (cause) {
        throw new RegistryError({
          message: `The schema of ${definition.id}${where(definition)} does not compile: ${messageOf(cause)}`,
          cause,
        });
      }
      if (!validate)
        throw new RegistryError({ message: `The schema of ${definition.id} did not register` });
      const assertions =
        definition.assertions === undefined
          ? undefined
          : compileAssertionSet(definition.assertions, `assertions.json of ${definition.id}`);
      let ontology: CompiledOntology | undefined;
      try {
        ontology =
          definition.ontology === undefined ? undefined : compileOntology(definition.ontology);
      } catch (cause) {
        throw new RegistryError({
          message: `The ontology.json of ${definition.id}${where(definition)} does not compile: ${messageOf(cause)}`,
          cause,
        });
      }
      this.#entries.set(definition.id, { definition, parsed, validate, assertions, ontology });
    }
  }

  /** Loads the built-in STypes and every given folder. Throws {@link RegistryError}. */
  static async load(options: LoadRegistryOptions = {}): Promise<STypeRegistry> {
    const folders = [
      ...(options.builtins === false ? [] : [builtinSTypesDirectory()]),
      ...(options.directories ?? []),
    ];
    const definitions: STypeDefinition[] = [];
    for (const folder of folders) definitions.push(...(await readSTypeDirectory(folder)));
    return new STypeRegistry(definitions);
  }

  /** A registry of definitions built in code (later definitions of an id win). */
  static fromDefinitions(definitions: readonly STypeDefinition[]): STypeRegistry {
    return new STypeRegistry(definitions);
  }

  /** Number of registered STypes. */
  get size(): number {
    return this.#entries.size;
  }

  /** Every registered id, sorted. */
  ids(): string[] {
    return [...this.#entries.keys()].sort();
  }

  /** True when `id` (or its `urn:stype:` form) is registered. */
  has(id: string): boolean {
    return this.#entry(id) !== undefined;
  }

  /** The definition of `id`, or `undefined`. */
  get(id: string): STypeDefinition | undefined {
    return this.#entry(id)?.definition;
  }

  /** The compiled assertions of `id`, when it has an `assertions.json`. */
  assertions(id: string): CompiledAssertionSet | undefined {
    return this.#entry(id)?.assertions;
  }

  /** The compiled `ontology.json` of `id`, when it has one. */
  ontology(id: string): CompiledOntology | undefined {
    return this.#entry(id)?.ontology;
  }

  /**
   * Summaries of the registered STypes, sorted by id. `namespace` keeps those whose id
   * starts with it, part by part: `org` and `org.agent` both match `org.agent.TaskPlan.v1`.
   */
  list(options: { namespace?: string } = {}): STypeSummary[] {
    const prefix = options.namespace ? `${options.namespace.replace(/\.$/, '')}.` : '';
    const summaries: STypeSummary[] = [];
    for (const id of this.ids()) {
      if (!id.startsWith(prefix)) continue;
      summaries.push(summarize(this.#entries.get(id) as Entry));
    }
    return summaries;
  }

  /** Validates `payload` against the schema of `id` (no `args_stype` check). */
  validate(id: string, payload: unknown): SchemaValidation {
    const entry = this.#entry(id);
    if (!entry)
      return { valid: false, errors: [{ path: '', message: `SType ${id} is not registered` }] };
    return runSchema(entry, payload, '', 'payload');
  }

  /**
   * Double validation, as the MPL proxy does it: the payload against `id`, then — when the
   * payload carries a string `args_stype` and an `args` member — `args` against that SType.
   * Each error says its layer (`payload` or `args`) and its JSON path in the payload.
   */
  validateMessage(id: string, payload: unknown): MessageValidation {
    const entry = this.#entry(id);
    if (!entry)
      return {
        valid: false,
        code: 'E-UNKNOWN-STYPE',
        errors: [{ path: '', message: `SType ${id} is not registered` }],
      };
    const outer = runSchema(entry, payload, '', 'payload');
    if (!isJsonObject(payload as JsonValue)) return withCode(outer);
    const record = payload as Record<string, unknown>;
    const argsStype = record.args_stype;
    if (typeof argsStype !== 'string' || !('args' in record)) return withCode(outer);
    const argsEntry = this.#entry(argsStype);
    if (!argsEntry) {
      const errors = [
        ...outer.errors,
        {
          path: '/args_stype',
          message: `names ${argsStype}, which is not a registered SType`,
          layer: 'args' as const,
          stype: argsStype,
        },
      ];
      return {
        valid: false,
        errors,
        argsStype,
        code: outer.valid ? 'E-UNKNOWN-STYPE' : 'E-SCHEMA-FIDELITY',
      };
    }
    const inner = runSchema(argsEntry, record.args, '/args', 'args');
    const errors = [...outer.errors, ...inner.errors];
    const result: MessageValidation = { valid: outer.valid && inner.valid, errors, argsStype };
    if (!outer.valid) result.code = 'E-SCHEMA-FIDELITY';
    else if (!inner.valid) result.code = 'E-TOOL-ARG-COERCION';
    return result;
  }

  #entry(id: string): Entry | undefined {
    const direct = this.#entries.get(id);
    if (direct) return direct;
    if (id.startsWith('urn:stype:')) return this.#entries.get(id.slice('urn:stype:'.length));
    return undefined;
  }
}

function withCode(validation: SchemaValidation): MessageValidation {
  return validation.valid ? validation : { ...validation, code: 'E-SCHEMA-FIDELITY' };
}

function runSchema(
  entry: Entry,
  payload: unknown,
  prefix: string,
  layer: 'payload' | 'args',
): SchemaValidation {
  if (entry.validate(payload)) return { valid: true, errors: [] };
  return {
    valid: false,
    errors: schemaErrorDetails(entry.validate.errors, { prefix, layer, stype: entry.parsed.id }),
  };
}

function summarize(entry: Entry): STypeSummary {
  const { definition, parsed } = entry;
  const summary: STypeSummary = {
    id: parsed.id,
    namespace: parsed.namespace,
    domain: parsed.domain,
    name: parsed.name,
    version: parsed.version,
    assertions: entry.assertions?.definition.assertions.length ?? 0,
    examples: definition.examples.length,
    negatives: definition.negatives.length,
  };
  if (typeof definition.schema.title === 'string') summary.title = definition.schema.title;
  if (typeof definition.schema.description === 'string')
    summary.description = definition.schema.description;
  return summary;
}

function where(definition: STypeDefinition): string {
  return definition.source ? ` (${definition.source})` : '';
}

function messageOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
