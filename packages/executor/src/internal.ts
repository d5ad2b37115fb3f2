// `@mtpx/executor/internal`: what sibling packages (@mtpx/agent, @mtpx/bullmq, @mtpx/mcp)
// need from @mtpx/executor but users should not. Each symbol is tagged `@internal` where
// it is declared.
export { cacheKey } from './cache/result-cache';
export { type ArgumentCheck, ArgumentValidator } from './call/argument-validator';
export { unwatchAbort, watchAbort } from './call/tool-context';
export {
  boundedToolCall,
  callOutOfBounds,
  DEFAULT_VALUE_LIMITS,
  outputOutOfBounds,
} from './call/value-limits';
export { toToolErrorCode } from './errors';
export { EventChannel, type EventChannelOptions } from './events/event-channel';
export { startsEarly } from './policy/side-effect-hold';
export type { AbortWatcher } from './run/call-node';
export { isZodSchema, timeLimitOf, toolSpecOf } from './tools/define-tool';
