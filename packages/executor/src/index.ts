export type { ApprovalRequestedEvent, ApprovalResolvedEvent } from './approval-events';
export { type ArgumentCheck, ArgumentValidator } from './argument-validator';
export {
  defineTool,
  type InferToolArgs,
  isZodSchema,
  type Tool,
  type ToolContext,
  type ToolDefinition,
  type ToolDefinitionOptions,
  type ToolInputSchema,
  type ToolProgress,
  toolSpecOf,
  type ZodSchema,
} from './define-tool';
export {
  ExecutorError,
  type ExecutorErrorCode,
  ToolExecutionError,
  type ToolExecutionErrorOptions,
  toToolErrorCode,
} from './errors';
export { EventChannel, type EventChannelOptions } from './event-channel';
export type {
  CacheFailedEvent,
  CallEventBase,
  CallFinishedEvent,
  CallProgressEvent,
  CallRetriedEvent,
  CallSkippedEvent,
  CallStartedEvent,
  ExecutorEvent,
  ExecutorEventBase,
  ExecutorEventHandler,
  PlanFinishedEvent,
  PlanStartedEvent,
} from './events';
export {
  createExecutor,
  type ExecuteOptions,
  type Executor,
  type ExecutorOptions,
} from './executor';
export { idempotencyKeyOf } from './idempotency-key';
export type { Scheduling } from './plan-intake';
export {
  type CachedResult,
  cacheKey,
  InMemoryResultCache,
  type InMemoryResultCacheOptions,
  type ResultCache,
} from './result-cache';
export type { RetryBackoff } from './retry-backoff';
export {
  type ApproveHandler,
  RiskPolicy,
  type RiskPolicyOptions,
  type ToolPolicy,
} from './risk-policy';
export type { ExecutionRun, RunHistory, RunOptions } from './run-options';
export { ToolRegistry } from './tool-registry';
export { type AnyTool, defineToolkit, type Toolkit } from './toolkit';
export {
  callOutOfBounds,
  DEFAULT_VALUE_LIMITS,
  outputOutOfBounds,
  type ValueLimits,
} from './value-limits';
export { VERSION } from './version';
