export {
  type CachedResult,
  cacheKey,
  InMemoryResultCache,
  type InMemoryResultCacheOptions,
  type ResultCache,
} from './cache/result-cache';
export { type ArgumentCheck, ArgumentValidator } from './call/argument-validator';
export { idempotencyKeyOf } from './call/idempotency-key';
export type { RetryBackoff } from './call/retry-backoff';
export {
  callOutOfBounds,
  DEFAULT_VALUE_LIMITS,
  outputOutOfBounds,
  type ValueLimits,
} from './call/value-limits';
export {
  ExecutorError,
  type ExecutorErrorCode,
  ToolExecutionError,
  type ToolExecutionErrorOptions,
  toToolErrorCode,
} from './errors';
export type { ApprovalRequestedEvent, ApprovalResolvedEvent } from './events/approval-events';
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
export {
  type ApproveHandler,
  RiskPolicy,
  type RiskPolicyOptions,
  type ToolPolicy,
} from './policy/risk-policy';
export type { ExecutionRun, RunHistory, RunOptions } from './run/plan-execution-types';
export type { Scheduling } from './run/plan-intake';
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
export { ToolRegistry } from './tools/tool-registry';
export { type AnyTool, defineToolkit, type Toolkit } from './tools/toolkit';
export { VERSION } from './version';
