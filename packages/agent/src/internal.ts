// `@mtpx/agent/internal`: what sibling packages (@mtpx/postgres, @mtpx/inspector, apps) need
// from @mtpx/agent but users should not. Each symbol is tagged `@internal` where it is
// declared.
export { boundedToolCall } from './bounded-calls';
export { type AliasedCall, ResponseAliases } from './call-aliases';
export { type EagerDispatch, finishedNormally } from './eager-dispatch';
export { AgentToolInputSchema } from './run/agent-tool';
export { REFERENCE_DEFINITION, REFERENCE_SCHEMA } from './run/reference-schema';
export { addUsage } from './run/run-output';
export {
  JournaledCallSchema,
  JournaledRunSchema,
  journalArgumentsHash,
  parseJournaledCall,
  parseJournaledRun,
} from './run-journal';
export { RunRecordSchema, SessionSchema } from './session/session';
