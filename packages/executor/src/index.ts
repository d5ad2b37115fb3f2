// `@mtpx/executor`: what a user of the executor needs. What sibling packages need besides
// is in `@mtpx/executor/internal`.
export {
  type ApprovalAnswer,
  type ApprovalRequest,
  approvalIdOf,
  argumentsDigest,
  type PlanApprovals,
  type WaitingCall,
} from './approvals/plan-approvals';
export {
  type CachedResult,
  InMemoryResultCache,
  type InMemoryResultCacheOptions,
  type ResultCache,
} from './cache/result-cache';
export { idempotencyKeyOf } from './call/idempotency-key';
export type { RetryBackoff } from './call/retry-backoff';
export type { ValueLimits } from './call/value-limits';
export type { ToolConcurrencyLimits } from './concurrency/tool-concurrency';
export {
  ExecutorError,
  type ExecutorErrorCode,
  ToolExecutionError,
  type ToolExecutionErrorOptions,
} from './errors';
export type {
  ApprovalRequestedEvent,
  ApprovalResolvedEvent,
  CacheFailedEvent,
  CallEventBase,
  CallFinishedEvent,
  CallHeldEvent,
  CallProgressEvent,
  CallReleasedEvent,
  CallRetriedEvent,
  CallSkippedEvent,
  CallStartedEvent,
  CallThrottledEvent,
  ExecutorEvent,
  ExecutorEventBase,
  ExecutorEventHandler,
  PlanFinishedEvent,
  PlanStartedEvent,
} from './events/events';
export {
  createExecutor,
  type ExecuteOptions,
  type Executor,
  type ExecutorOptions,
} from './executor';
export {
  type ApproveHandler,
  RiskPolicy,
  type RiskPolicyOptions,
  type ToolPolicy,
} from './policy/risk-policy';
export { holdSideEffects } from './policy/side-effect-hold';
export type {
  ExecutionRun,
  HoldRule,
  KnownResultSource,
  PlanExecution,
  PlanExecutionOptions,
  ResultRecorder,
  RunHistory,
  RunOptions,
} from './run/plan-execution-types';
export type { Scheduling } from './run/plan-intake';
export {
  defineTool,
  type InferToolArgs,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolDefinitionOptions,
  type ToolInputSchema,
  type ToolProgress,
  type ZodSchema,
} from './tools/define-tool';
export { ToolRegistry } from './tools/tool-registry';
export { type AnyTool, defineToolkit, type Toolkit } from './tools/toolkit';
export { VERSION } from './version';
