// `@mtpx/agent/internal`: what sibling packages (@mtpx/postgres, @mtpx/inspector, apps) need
// from @mtpx/agent but users should not. Each symbol is tagged `@internal` where it is
// declared.

export {
  JournaledApprovalSchema,
  JournaledDecisionSchema,
} from './approvals/pending-approval';
export {
  JournaledCallSchema,
  JournaledRunSchema,
  parseJournaledCall,
  parseJournaledRun,
} from './journal/run-journal';
export { AgentToolInputSchema } from './run/agent-tool';
export { boundedToolCall } from './run/bounded-calls';
export { type AliasedCall, ResponseAliases } from './run/call-aliases';
export { finishedNormally } from './run/eager-dispatch';
export { REFERENCE_DEFINITION } from './run/reference-schema';
export { addUsage } from './run/run-output';
export { RunRecordSchema, SessionSchema } from './session/session';
