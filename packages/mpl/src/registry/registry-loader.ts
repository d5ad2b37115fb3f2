import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isJsonObject, type JsonObject, type JsonValue, safeParseJson } from '@mtpx/protocol';
import { RegistryError } from '../errors';
import { parseSTypeId } from './stype-id';

/** A named sample payload of an SType (`examples/<name>.json` or `negative/<name>.json`). */
export interface STypeSample {
  name: string;
  payload: JsonValue;
}

/** Everything the on-disk layout holds for one SType. */
export interface STypeDefinition {
  /** `org.agent.TaskPlan.v1` */
  id: string;
  /** The JSON Schema (2020-12) of the payload. */
  schema: JsonObject;
  /** The raw `assertions.json`, when present. */
  assertions?: JsonValue;
  /** The raw `ontology.json`, when present (kept and served; not evaluated). */
  ontology?: JsonValue;
  /** Payloads that must validate. */
  examples: STypeSample[];
  /** Payloads that must not validate. */
  negatives: STypeSample[];
  /** The folder it was loaded from, when it came from disk. */
  source?: string;
}

/**
 * The folder of the STypes that ship with this package, in the reference layout
 * (resolved from this module, so it works from an installed tarball: `dist/` and
 * `src/registry/` both sit below the package's `stypes/`).
 */
export function builtinSTypesDirectory(): string {
  const built = fileURLToPath(new URL('../stypes', import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL('../../stypes', import.meta.url));
}

async function readJson(file: string): Promise<JsonValue> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new RegistryError({ message: `Cannot read ${file}`, cause });
  }
  const parsed = safeParseJson(text);
  if (!parsed.ok)
    throw new RegistryError({
      message: `${file} is not valid JSON: ${parsed.error.message}`,
      cause: parsed.error,
    });
  return parsed.value;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The folder holding `<namespace>/<domain>/<Name>/v<N>/` trees for a registry folder: the
 * folder itself, or its `stypes/` child when it is a registry root (as in the reference).
 *
 * @internal
 */
export async function resolveSTypesRoot(directory: string): Promise<string> {
  if (!(await isDirectory(directory)))
    throw new RegistryError({ message: `The registry folder ${directory} does not exist` });
  const nested = join(directory, 'stypes');
  return (await isDirectory(nested)) ? nested : directory;
}

/**
 * Reads every SType under a registry folder in the reference layout:
 * `stypes/<namespace>/<domain>/<Name>/v<N>/schema.json`, with optional `assertions.json`,
 * `ontology.json`, `examples/*.json` and `negative/*.json`.
 */
export async function readSTypeDirectory(directory: string): Promise<STypeDefinition[]> {
  const root = await resolveSTypesRoot(directory);
  const files = (await readdir(root, { recursive: true })).map((file) => file.split(sep).join('/'));
  const schemaFiles = files.filter(
    (file) => file === 'schema.json' || file.endsWith('/schema.json'),
  );
  const fileSet = new Set(files);
  const definitions: STypeDefinition[] = [];
  for (const schemaFile of schemaFiles.sort()) {
    const folder = schemaFile.slice(0, -'/schema.json'.length);
    const parsedId = parseSTypeId(folder.split('/').join('.'));
    if (!parsedId.ok)
      throw new RegistryError({
        message: `${join(root, schemaFile)} is not at stypes/<namespace>/<domain>/<Name>/v<N>/schema.json: ${parsedId.error.message}`,
      });
    const { id, urn } = parsedId.value;
    const schema = await readJson(join(root, schemaFile));
    if (!isJsonObject(schema))
      throw new RegistryError({ message: `${join(root, schemaFile)} is not a JSON Schema object` });
    const declared = schema.$id;
    if (typeof declared === 'string' && declared.startsWith('urn:stype:') && declared !== urn)
      throw new RegistryError({
        message: `${join(root, schemaFile)} declares $id ${declared} but sits in the folder of ${id}`,
      });
    const definition: STypeDefinition = {
      id,
      schema,
      examples: [],
      negatives: [],
      source: join(root, folder),
    };
    if (fileSet.has(`${folder}/assertions.json`))
      definition.assertions = await readJson(join(root, folder, 'assertions.json'));
    if (fileSet.has(`${folder}/ontology.json`))
      definition.ontology = await readJson(join(root, folder, 'ontology.json'));
    for (const [kind, target] of [
      ['examples', definition.examples],
      ['negative', definition.negatives],
    ] as const) {
      const prefix = `${folder}/${kind}/`;
      for (const file of files.filter(
        (candidate) =>
          candidate.startsWith(prefix) &&
          candidate.endsWith('.json') &&
          !candidate.slice(prefix.length).includes('/'),
      )) {
        target.push({
          name: file.slice(prefix.length, -'.json'.length),
          payload: await readJson(join(root, file)),
        });
      }
    }
    definitions.push(definition);
  }
  return definitions;
}
