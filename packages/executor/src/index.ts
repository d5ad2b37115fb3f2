export type { ApprovalRequestedEvent, ApprovalResolvedEvent } from './events/approval-events';
export { type ArgumentCheck, ArgumentValidator } from './call/argument-validator';
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
} from './tools/define-tool';
export {
  ExecutorError,
  type ExecutorErrorCode,
  ToolExecutionError,
  type ToolExecutionErrorOptions,
  toToolErrorCode,
} from './errors';
export { EventChannel, type EventChannelOptions } from './events/event-channel';
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
} from './events/events';
export {
  createExecutor,
  type ExecuteOptions,
  type Executor,
  type ExecutorOptions,
} from './executor';
export { idempotencyKeyOf } from './call/idempotency-key';
export type { Scheduling } from './run/plan-intake';
export {
  type CachedResult,
  cacheKey,
  InMemoryResultCache,
  type InMemoryResultCacheOptions,
  type ResultCache,
} from './cache/result-cache';
export type { RetryBackoff } from './call/retry-backoff';
export {
  type ApproveHandler,
  RiskPolicy,
  type RiskPolicyOptions,
  type ToolPolicy,
} from './policy/risk-policy';
export type { ExecutionRun, RunHistory, RunOptions } from './run/plan-execution-types';
export { ToolRegistry } from './tools/tool-registry';
export { type AnyTool, defineToolkit, type Toolkit } from './tools/toolkit';
export {
  callOutOfBounds,
  DEFAULT_VALUE_LIMITS,
  outputOutOfBounds,
  type ValueLimits,
} from './call/value-limits';
export { VERSION } from './version';
