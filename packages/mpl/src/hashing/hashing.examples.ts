// Type-checked examples shown in the TSDoc of `canonical-json.ts` and `semantic-hash.ts`
// (scripts/docs/examples.mjs).
import { canonicalize } from './canonical-json';
import { hashCanonical, semanticHash, verifyHash } from './semantic-hash';

export function hashingExamples() {
  //#region canonicalize
  canonicalize({ z: 1, a: 2, m: null }); // '{"a":2,"z":1}'
  //#endregion canonicalize
  //#region hashCanonical
  hashCanonical('{"a":1}', 'b3'); // 'b3:…'
  //#endregion hashCanonical
  //#region semanticHash
  semanticHash({ b: 2, a: 1 }) === semanticHash({ a: 1, b: 2 }); // true
  semanticHash({ a: 1 }, { algorithm: 'b3' }); // 'b3:…'
  //#endregion semanticHash
  //#region verifyHash
  verifyHash({ a: 1 }, semanticHash({ a: 1 })); // true
  //#endregion verifyHash
}
