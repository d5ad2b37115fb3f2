// `@mtpx/mpl/internal`: what sibling packages (@mtpx/mpl-proxy, @mtpx/postgres,
// @mtpx/inspector) and the apps need from @mtpx/mpl but users should not. Each symbol is
// tagged `@internal` where it is declared.

export { readServerSentEvents, type ServerSentEvent } from './client/sse';
export {
  type CallProvenance,
  type CallRequestBody,
  type CallResponseBody,
  type HandshakeHello,
  PROFILE_HEADER,
  QOM_RESULT_HEADER,
  SEM_HASH_HEADER,
  STYPE_HEADER,
} from './client/wire';
export { createMplError, isMplErrorCode } from './errors';
export {
  canonicalNumber,
  compareCodePoints,
  MAX_CANONICAL_DEPTH,
  trimUnicodeWhiteSpace,
} from './hashing/canonical-json';
export { hashCanonical } from './hashing/semantic-hash';
export { planReferenceOf } from './provenance/provenance';
export { type ProvenanceRow, provenanceRows } from './provenance/provenance-row';
export { compileAssertionSet, toCelInput } from './qom/assertions';
export { resolveSTypesRoot } from './registry/registry-loader';
export { schemaErrorDetails } from './registry/schema-errors';
export { MAX_STYPE_ID_LENGTH } from './registry/stype-id';
