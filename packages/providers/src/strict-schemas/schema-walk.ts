// The walk both strict-schema checks share: every subschema once, the object rules, local `$ref`s.

/** A JSON Schema node as the walk sees it. */
export type Schema = Record<string, unknown>;

export const isSchemaObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const jsonTypes = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** What walking a schema found, for the size limits. */
export interface SchemaCounts {
  properties: number;
  stringLength: number;
  enumValues: number;
  optionalParameters: number;
  unionParameters: number;
  deepestObject: number;
}

export function isObjectSchema(schema: Schema): boolean {
  const type = schema.type;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    isSchemaObject(schema.properties)
  );
}

export interface WalkRules {
  keywords: ReadonlySet<string>;
  /** The rule of one schema node beyond its keywords (path for messages). */
  node: (schema: Schema, path: string, issues: string[]) => void;
}

/** Walks every subschema once, checking keywords and object rules, counting for the limits. */
export function walk(root: Schema, rules: WalkRules): { issues: string[]; counts: SchemaCounts } {
  const issues: string[] = [];
  const counts: SchemaCounts = {
    properties: 0,
    stringLength: 0,
    enumValues: 0,
    optionalParameters: 0,
    unionParameters: 0,
    deepestObject: 0,
  };
  const visit = (schema: unknown, path: string, objectDepth: number, seen: Set<object>) => {
    if (!isSchemaObject(schema)) {
      issues.push(`${path}: a schema must be an object, got ${JSON.stringify(schema)}`);
      return;
    }
    if (seen.has(schema)) {
      issues.push(`${path}: the schema contains itself (a cycle of objects)`);
      return;
    }
    seen.add(schema);
    for (const key of Object.keys(schema)) {
      if (!rules.keywords.has(key)) issues.push(`${path}: "${key}" is not supported`);
    }
    const type = schema.type;
    const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
    for (const each of types) {
      if (typeof each !== 'string' || !jsonTypes.has(each)) {
        issues.push(`${path}: type ${JSON.stringify(each)} is not a JSON Schema type`);
      }
    }
    if (Array.isArray(type) || Array.isArray(schema.anyOf)) counts.unionParameters += 1;
    if (Array.isArray(schema.enum)) {
      counts.enumValues += schema.enum.length;
      for (const value of schema.enum) counts.stringLength += String(value).length;
    }
    if (schema.const !== undefined) counts.stringLength += String(schema.const).length;
    rules.node(schema, path, issues);
    let depth = objectDepth;
    if (isObjectSchema(schema)) {
      depth += 1;
      counts.deepestObject = Math.max(counts.deepestObject, depth);
      const properties = isSchemaObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const [name, property] of Object.entries(properties)) {
        counts.properties += 1;
        counts.stringLength += name.length;
        if (!required.includes(name)) counts.optionalParameters += 1;
        visit(property, `${path}/properties/${name}`, depth, seen);
      }
    }
    if (isSchemaObject(schema.additionalProperties)) {
      visit(schema.additionalProperties, `${path}/additionalProperties`, depth, seen);
    }
    if (schema.items !== undefined) visit(schema.items, `${path}/items`, depth, seen);
    for (const key of ['anyOf', 'allOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) {
        branches.forEach((branch, index) => {
          visit(branch, `${path}/${key}/${index}`, objectDepth, seen);
        });
      }
    }
    for (const key of ['$defs', 'definitions'] as const) {
      const definitions = schema[key];
      if (isSchemaObject(definitions)) {
        for (const [name, definition] of Object.entries(definitions)) {
          counts.stringLength += name.length;
          visit(definition, `${path}/${key}/${name}`, objectDepth, seen);
        }
      }
    }
    seen.delete(schema);
  };
  visit(root, '#', 0, new Set());
  return { issues, counts };
}

/** The definition a local `$ref` names, or `undefined`. */
export function localDefinition(root: Schema, ref: string): unknown {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return undefined;
  const definitions = root[match[1] as string];
  return isSchemaObject(definitions) ? definitions[match[2] as string] : undefined;
}

/** The object rules both providers share: closed objects, local references that resolve. */
export function commonNodeRules(root: Schema, schema: Schema, path: string, issues: string[]) {
  if (isObjectSchema(schema) && schema.additionalProperties !== false) {
    issues.push(`${path}: an object must set "additionalProperties": false`);
  }
  if (schema.$ref !== undefined) {
    if (typeof schema.$ref !== 'string' || localDefinition(root, schema.$ref) === undefined) {
      issues.push(`${path}: "$ref" must name a local definition, got ${String(schema.$ref)}`);
    }
  }
  if (schema.required !== undefined && !Array.isArray(schema.required)) {
    issues.push(`${path}: "required" must be an array`);
  }
}

/** Whether a definition reaches itself through `$ref` (Anthropic refuses recursive schemas). */
export function hasRecursiveRef(root: Schema): boolean {
  const refsOf = (schema: unknown, out: string[]): string[] => {
    if (Array.isArray(schema)) for (const each of schema) refsOf(each, out);
    else if (isSchemaObject(schema)) {
      for (const [key, value] of Object.entries(schema)) {
        if (key === '$ref' && typeof value === 'string') out.push(value);
        else if (key !== 'enum' && key !== 'const' && key !== 'default') refsOf(value, out);
      }
    }
    return out;
  };
  const reaches = (ref: string, target: string, seen: Set<string>): boolean => {
    if (seen.has(ref)) return false;
    seen.add(ref);
    const definition = localDefinition(root, ref);
    if (definition === undefined) return false;
    // The root's own references are walked without its definitions (they are walked as refs).
    const scope =
      definition === root
        ? Object.fromEntries(
            Object.entries(root).filter(([key]) => key !== '$defs' && key !== 'definitions'),
          )
        : definition;
    return refsOf(scope, []).some((next) => next === target || reaches(next, target, seen));
  };
  const all = refsOf(root, []);
  return all.some((ref) => reaches(ref, ref, new Set()));
}
