// Type-checked examples shown in the TSDoc of `reference-schema.ts` (scripts/docs/examples.mjs).
import { schemaWithReferences } from './reference-schema';

export function schemaWithReferencesExample() {
  //#region schemaWithReferences
  const one = schemaWithReferences({ type: 'object', properties: { a: { type: 'number' } } });
  // { type: 'object', properties: { a: { anyOf: [{ type: 'number' }, REFERENCE_SCHEMA] } } }
  const two = schemaWithReferences({
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'string' } },
  });
  // { type: 'object', properties: { a: { anyOf: [{ type: 'number' }, { $ref: '#/$defs/ref' }] }, … },
  //   $defs: { ref: REFERENCE_SCHEMA } }
  //#endregion schemaWithReferences
  return [one, two];
}
