export type { PlanHistory } from './call-graph';
export { canonicalJson } from './canonical-json';
export {
  createEnvelope,
  EnvelopeError,
  type EnvelopeErrorCode,
  isCompatibleVersion,
  type MessageEnvelope,
  MessageEnvelopeSchema,
  parseEnvelope,
} from './envelope';
export { MtpxError, type MtpxErrorOptions } from './errors';
export {
  type BatchMode,
  BatchModeSchema,
  type ExecutionPlan,
  type ExecutionPlanInput,
  ExecutionPlanSchema,
  type ToolBatch,
  type ToolBatchInput,
  ToolBatchSchema,
} from './execution-plan';
export {
  InvalidJsonError,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  type SafeResult,
  safeParseJson,
} from './json';
export {
  type AssistantMessage,
  AssistantMessageSchema,
  type AssistantToolCall,
  AssistantToolCallSchema,
  type Message,
  MessageSchema,
  type SystemMessage,
  SystemMessageSchema,
  type ToolMessage,
  ToolMessageSchema,
  toolMessageFromResult,
  type UserMessage,
  UserMessageSchema,
} from './messages';
export { type PlanFromToolCallsOptions, planFromToolCalls } from './plan-derivation';
export { type PlanIssue, type PlanIssueCode, PlanValidationError } from './plan-issue';
export {
  assertValidPlan,
  type ValidatePlanOptions,
  validateExecutionPlan,
} from './plan-validation';
export type {
  FinishReason,
  Provider,
  ProviderEvent,
  ProviderRequest,
  ProviderTurn,
  Usage,
} from './provider';
export { type ProviderPart, ProviderPartSchema } from './provider-parts';
export {
  findRefs,
  type Reference,
  RefResolutionError,
  type RefResolutionErrorCode,
  resolveReferences,
} from './refs';
export {
  type ToolArguments,
  ToolArgumentsSchema,
  type ToolCall,
  type ToolCallInput,
  ToolCallSchema,
} from './tool-call';
export {
  type AudioItem,
  AudioItemSchema,
  type FileItem,
  FileItemSchema,
  type ImageItem,
  ImageItemSchema,
  isToolOutput,
  type MediaLists,
  MediaListsSchema,
  type ToolOutput,
  ToolOutputSchema,
  toolOutput,
  type VideoItem,
  VideoItemSchema,
} from './tool-output';
export {
  type Approval,
  ApprovalSchema,
  type ToolErrorCode,
  ToolErrorCodeSchema,
  type ToolResult,
  type ToolResultInput,
  ToolResultSchema,
} from './tool-result';
export {
  type JsonSchemaObject,
  JsonSchemaObjectSchema,
  type RiskLevel,
  RiskLevelSchema,
  type ToolSpec,
  type ToolSpecInput,
  ToolSpecSchema,
} from './tool-spec';
export { MTP_VERSION, VERSION } from './version';
