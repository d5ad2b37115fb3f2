import Ajv07, { type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The JSON Schema dialects the executor validates with a matching validator. */
export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

const dialectByUri: ReadonlyMap<string, SchemaDialect> = new Map([
  ['json-schema.org/draft-07/schema', 'draft-07'],
  // Draft-06 is a subset of draft-07 in every keyword Ajv checks.
  ['json-schema.org/draft-06/schema', 'draft-07'],
  ['json-schema.org/draft/2019-09/schema', '2019-09'],
  ['json-schema.org/draft/2020-12/schema', '2020-12'],
]);

/**
 * The dialect a schema declares with `$schema` (`http` or `https`, with or without the
 * trailing `#`). A missing or unknown `$schema` is read as 2020-12, MCP's default dialect.
 */
export function schemaDialectOf(schema: unknown): SchemaDialect {
  const declared = (schema as { $schema?: unknown } | null)?.$schema;
  if (typeof declared !== 'string') return '2020-12';
  const key = declared
    .trim()
    .replace(/^https?:\/\//, '')
    .replace(/#$/, '');
  return dialectByUri.get(key) ?? '2020-12';
}

interface SchemaCompiler {
  compile(schema: object): ValidateFunction;
}

/**
 * Compiles JSON Schemas with the Ajv class of each one's dialect, creating each Ajv
 * instance on first use, so the compiled schemas live as long as the compiler.
 */
export class DialectCompiler {
  readonly #compilers = new Map<SchemaDialect, SchemaCompiler>();

  /** A validate function for `schema`, or throws Ajv's error for a schema it refuses. */
  compile(schema: object): ValidateFunction {
    const dialect = schemaDialectOf(schema);
    let compiler = this.#compilers.get(dialect);
    if (compiler === undefined) {
      compiler = createAjv(dialect);
      this.#compilers.set(dialect, compiler);
    }
    return compiler.compile(withKnownMetaSchema(schema, dialect));
  }
}

/**
 * The schema as its Ajv instance can resolve it: a `$schema` naming a meta-schema that
 * instance does not hold (draft-06, an unknown URI, the `https` spelling) is dropped, as
 * the dialect has already been chosen from it.
 */
function withKnownMetaSchema(schema: object, dialect: SchemaDialect): object {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined || declared === canonicalUri[dialect]) return schema;
  const { $schema: _dropped, ...rest } = schema as Record<string, unknown>;
  return rest;
}

const canonicalUri: Record<SchemaDialect, string> = {
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

function createAjv(dialect: SchemaDialect): SchemaCompiler {
  // `strict: false`: schemas come from tool authors and MCP servers and may carry
  // keywords Ajv does not know; they are ignored rather than refused. No coercion, no
  // defaults: the model must send the right types, and its arguments are never modified.
  const options = { allErrors: true, verbose: true, strict: false, coerceTypes: false } as const;
  const ajv =
    dialect === 'draft-07'
      ? new Ajv07(options)
      : dialect === '2019-09'
        ? new Ajv2019(options)
        : new Ajv2020(options);
  addFormats(ajv as Ajv2020);
  return ajv;
}
