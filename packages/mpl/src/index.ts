export type {
  CallOptions,
  CallProvenanceInfo,
  CallResult,
  MplSessionClient,
  ProvenanceChain,
} from './client/call-types';
export { MplClient, type MplClientOptions } from './client/client';
export {
  type HandledMessage,
  type MessageHandler,
  MplSession,
  type MplSessionMessage,
  type MplSessionOptions,
  type MplSessionRunOptions,
  type MplSessionRunSummary,
  Session,
  type SessionMessage,
  type SessionOptions,
  type SessionRunOptions,
  type SessionRunSummary,
} from './client/mpl-session';
export type {
  CapabilitiesResponseBody,
  DeliveredMessage,
  HandshakeSelect,
  HealthResponseBody,
} from './client/wire';
export {
  type CreateMplEngineOptions,
  type Inspection,
  type InspectOptions,
  MplEngine,
} from './engine';
export {
  AssertionFailedError,
  ConnectionError,
  type ErrorDetail,
  InternalError,
  InvalidRequestError,
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
export { canonicalize } from './hashing/canonical-json';
export {
  HASH_ALGORITHMS,
  type HashAlgorithm,
  hashAlgorithmOf,
  semanticHash,
  verifyHash,
} from './hashing/semantic-hash';
export { MplPolicy, type PolicyDecision, type PolicyFile, PolicyFileSchema } from './policy';
export {
  type ChainProblem,
  type ChainVerification,
  computeEntryHash,
  linkEntry,
  type ProvenanceEntry,
  type ProvenanceEntryInput,
  type ProvenanceRecord,
  type ProvenanceStore,
  verifyChain,
} from './provenance/provenance';
export { InMemoryProvenanceStore } from './provenance/provenance-memory';
export {
  type AssertionContext,
  type AssertionDefinition,
  type AssertionReport,
  type AssertionResult,
  type AssertionSetDefinition,
  AssertionSetDefinitionSchema,
  type AssertionSeverity,
  type CompiledAssertionSet,
} from './qom/assertions';
export {
  evaluateQom,
  type QomFailure,
  type QomMeasurement,
  type QomReport,
  type QomScores,
  QomScoresSchema,
} from './qom/qom';
export {
  BUILTIN_QOM_PROFILES,
  DEFAULT_QOM_PROFILE,
  loadQomProfiles,
  parseQomProfile,
  QOM_METRICS,
  type QomMetricName,
  type QomProfile,
  QomProfileSchema,
} from './qom/qom-profiles';
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
} from './registry/payloads';
export {
  type LoadRegistryOptions,
  type MessageValidation,
  type SchemaValidation,
  STypeRegistry,
  type STypeSummary,
} from './registry/registry';
export {
  builtinSTypesDirectory,
  readSTypeDirectory,
  type STypeDefinition,
  type STypeSample,
} from './registry/registry-loader';
export {
  formatSTypeId,
  isSTypeId,
  parseSTypeId,
  type STypeId,
  type STypeIdParts,
} from './registry/stype-id';
export { MPL_VERSION, VERSION } from './version';
