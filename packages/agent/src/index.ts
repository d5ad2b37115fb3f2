export { AgentError, type AgentErrorCode } from './agent-error';
export { boundedToolCall } from './bounded-calls';
export { type AliasedCall, ResponseAliases } from './call-aliases';
export {
  type EagerDispatch,
  type EagerDispatchOption,
  finishedNormally,
} from './eager-dispatch';
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
export { InMemoryRunJournal } from './in-memory-run-journal';
export { type Agent, type AgentStream, createAgent } from './run/agent';
export type { AgentExecutorOptions, AgentOptions, AgentRunOptions } from './run/agent-options';
export {
  type AgentToolInput,
  AgentToolInputSchema,
  type AgentToolOptions,
  agentAsTool,
  type DelegateAgent,
} from './run/agent-tool';
export { REFERENCE_INSTRUCTIONS } from './run/instructions';
export {
  REFERENCE_DEFINITION,
  REFERENCE_SCHEMA,
  type SchemaWithReferencesOptions,
  schemaWithReferences,
  specWithReferences,
} from './run/reference-schema';
export { addUsage, type RoundReasoning, type RunOutput, type StopReason } from './run/run-output';
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
export type { AgentResumeOptions } from './run-resume';
export {
  type CallEdge,
  type CallEvent,
  type CallPhase,
  type CallView,
  type CallViewStatus,
  callViewOf,
  createRunView,
  type RoundSegment,
  type RoundView,
  type RunView,
  type RunViewEvent,
  type RunViewStatus,
  reduceRunView,
  runViewOf,
  type ServerToolView,
  type UnknownEvent,
  unknownEvent,
} from './run-view/index';
export { InMemorySessionStore } from './session/in-memory-session-store';
export {
  JsonFileSessionStore,
  type JsonFileSessionStoreOptions,
  type SessionFileSystem,
} from './session/json-file-session-store';
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
