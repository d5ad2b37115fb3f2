export {
  type Agent,
  type AgentExecutorOptions,
  type AgentOptions,
  type AgentRunOptions,
  type AgentStream,
  createAgent,
} from './run/agent';
export { AgentError, type AgentErrorCode } from './agent-error';
export type {
  AgentEvent,
  AgentEventBase,
  AgentEventHandler,
  AgentExecutorEvent,
  CallHeldEvent,
  CallReleasedEvent,
  ReasoningDeltaEvent,
  RoundFinishedEvent,
  RoundStartedEvent,
  RunCancelledEvent,
  RunFailedEvent,
  RunFinishedEvent,
  RunStartedEvent,
  ServerToolUsedEvent,
  TextDeltaEvent,
  ToolCallDeltaEvent,
  ToolCallReadyEvent,
} from './events/agent-events';
export {
  type AgentToolInput,
  AgentToolInputSchema,
  type AgentToolOptions,
  agentAsTool,
  type DelegateAgent,
} from './run/agent-tool';
export { boundedToolCall } from './bounded-calls';
export { type AliasedCall, ResponseAliases } from './call-aliases';
export {
  type EagerDispatch,
  type EagerDispatchOption,
  finishedNormally,
} from './eager-dispatch';
export { InMemoryRunJournal } from './in-memory-run-journal';
export { InMemorySessionStore } from './session/in-memory-session-store';
export { REFERENCE_INSTRUCTIONS } from './run/instructions';
export {
  JsonFileSessionStore,
  type JsonFileSessionStoreOptions,
  type SessionFileSystem,
} from './session/json-file-session-store';
export {
  REFERENCE_DEFINITION,
  REFERENCE_SCHEMA,
  type SchemaWithReferencesOptions,
  schemaWithReferences,
  specWithReferences,
} from './run/reference-schema';
export {
  checkJournalVersion,
  type JournaledCall,
  JournaledCallSchema,
  type JournaledRun,
  JournaledRunSchema,
  journalArgumentsHash,
  parseJournaledCall,
  parseJournaledRun,
  type RunJournal,
} from './run-journal';
export { addUsage, type RoundReasoning, type RunOutput, type StopReason } from './run/run-output';
export type { AgentResumeOptions } from './run-resume';
export {
  checkSessionOwner,
  checkSessionVersion,
  type RunRecord,
  RunRecordSchema,
  type Session,
  type SessionAccess,
  SessionSchema,
  type SessionStore,
} from './session/session';
export { VERSION } from './version';
