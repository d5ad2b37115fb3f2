export {
  type AssertionContext,
  type AssertionDefinition,
  type AssertionReport,
  type AssertionResult,
  type AssertionSetDefinition,
  AssertionSetDefinitionSchema,
  type AssertionSeverity,
  type CompiledAssertionSet,
  compileAssertionSet,
  toCelInput,
} from './assertions';
export {
  canonicalize,
  canonicalNumber,
  compareCodePoints,
  MAX_CANONICAL_DEPTH,
  trimUnicodeWhiteSpace,
} from './canonical-json';
export {
  type CallOptions,
  type CallProvenanceInfo,
  type CallResult,
  MplClient,
  type MplClientOptions,
  type ProvenanceChain,
} from './client';
export {
  type CreateMplEngineOptions,
  type Inspection,
  type InspectOptions,
  MplEngine,
} from './engine';
export {
  AssertionFailedError,
  ConnectionError,
  createMplError,
  type ErrorDetail,
  InternalError,
  InvalidRequestError,
  isMplErrorCode,
  MPL_ERROR_CODES,
  MplError,
  type MplErrorBody,
  type MplErrorClassOptions,
  type MplErrorCode,
  type MplErrorOptions,
  NegotiationIncompatibleError,
  NotFoundError,
  PayloadTooLargeError,
  PolicyDeniedError,
  QomBreachError,
  RegistryError,
  SchemaFidelityError,
  SemanticHashMismatchError,
  ToolArgCoercionError,
  ToolOutcomeIncorrectError,
  UnauthorizedError,
  UnknownStypeError,
  UnknownToolError,
  UpstreamError,
} from './errors';
export {
  BUILTIN_PAYLOAD_SCHEMAS,
  type BuiltinPayloads,
  type BuiltinSTypeId,
  isBuiltinSTypeId,
  type RAGQueryPayload,
  RAGQueryPayloadSchema,
  type RAGResponsePayload,
  RAGResponsePayloadSchema,
  type ReasoningPayload,
  ReasoningPayloadSchema,
  type TaskPlanPayload,
  TaskPlanPayloadSchema,
  type ToolInvocationPayload,
  ToolInvocationPayloadSchema,
  type ToolResultPayload,
  ToolResultPayloadSchema,
} from './payloads';
export { MplPolicy, type PolicyDecision, type PolicyFile, PolicyFileSchema } from './policy';
export {
  type ChainProblem,
  type ChainVerification,
  computeEntryHash,
  linkEntry,
  type ProvenanceEntry,
  type ProvenanceRecord,
  type ProvenanceStore,
  planReferenceOf,
  verifyChain,
} from './provenance';
export { InMemoryProvenanceStore } from './provenance-memory';
export {
  evaluateQom,
  type QomFailure,
  type QomMeasurement,
  type QomReport,
  type QomScores,
  QomScoresSchema,
} from './qom';
export {
  BUILTIN_QOM_PROFILES,
  DEFAULT_QOM_PROFILE,
  loadQomProfiles,
  parseQomProfile,
  QOM_METRICS,
  type QomMetricName,
  type QomProfile,
  QomProfileSchema,
} from './qom-profiles';
export {
  type LoadRegistryOptions,
  type MessageValidation,
  type SchemaValidation,
  STypeRegistry,
  type STypeSummary,
} from './registry';
export {
  builtinSTypesDirectory,
  readSTypeDirectory,
  resolveSTypesRoot,
  type STypeDefinition,
  type STypeSample,
} from './registry-loader';
export { schemaErrorDetails } from './schema-errors';
export {
  HASH_ALGORITHMS,
  type HashAlgorithm,
  hashAlgorithmOf,
  hashCanonical,
  semanticHash,
  verifyHash,
} from './semantic-hash';
export {
  type HandledMessage,
  type MessageHandler,
  Session,
  type SessionMessage,
  type SessionOptions,
  type SessionRunOptions,
  type SessionRunSummary,
} from './session';
export { readServerSentEvents, type ServerSentEvent } from './sse';
export {
  formatSTypeId,
  isSTypeId,
  MAX_STYPE_ID_LENGTH,
  parseSTypeId,
  type STypeId,
  type STypeIdParts,
} from './stype-id';
export { MPL_VERSION, VERSION } from './version';
export {
  type CallProvenance,
  type CallRequestBody,
  type CallResponseBody,
  type CapabilitiesResponseBody,
  type DeliveredMessage,
  type HandshakeHello,
  type HandshakeSelect,
  type HealthResponseBody,
  PROFILE_HEADER,
  QOM_RESULT_HEADER,
  SEM_HASH_HEADER,
  STYPE_HEADER,
} from './wire';
