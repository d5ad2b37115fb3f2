// `@mtpx/agent`: what a user of the agent needs. What sibling packages need besides is in
// `@mtpx/agent/internal`.

export { AgentError, type AgentErrorCode } from './agent-error';
export type { ApprovalDecision } from './approvals/approval-decisions';
export {
  type ApprovalSecret,
  approvalSignature,
  type SignedApprovalFields,
} from './approvals/approval-signature';
export type { PendingApproval } from './approvals/pending-approval';
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
  InMemoryRunJournal,
  type InMemoryRunJournalOptions,
} from './journal/in-memory-run-journal';
export {
  JsonFileRunJournal,
  type JsonFileRunJournalOptions,
} from './journal/json-file-run-journal';
export {
  checkJournalVersion,
  type JournaledCall,
  type JournaledRun,
  journalArgumentsHash,
  type RunJournal,
  replacesJournaledResult,
} from './journal/run-journal';
export {
  checkLeaseToken,
  DEFAULT_LEASE_TTL_MS,
  type JournalWriteOptions,
  leaseHeld,
  leaseLost,
  type RunLease,
  RunLeaseError,
} from './journal/run-lease';
export type { AgentLeaseOptions } from './journal/run-lease-keeper';
export type { AgentResumeOptions } from './journal/run-resume';
export { type Agent, type AgentStream, createAgent } from './run/agent';
export type { AgentExecutorOptions, AgentOptions, AgentRunOptions } from './run/agent-options';
export {
  type AgentToolInput,
  type AgentToolOptions,
  agentAsTool,
  type DelegateAgent,
} from './run/agent-tool';
export type { EagerDispatch, EagerDispatchOption } from './run/eager-dispatch';
export { REFERENCE_INSTRUCTIONS } from './run/instructions';
export {
  REFERENCE_SCHEMA,
  type SchemaWithReferencesOptions,
  schemaWithReferences,
  specWithReferences,
} from './run/reference-schema';
export type { RoundReasoning, RunOutput, StopReason } from './run/run-output';
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
  type Session,
  type SessionAccess,
  type SessionStore,
} from './session/session';
export { SEARCH_TOOL_DESCRIPTION, type ToolSearchOutput } from './tool-search/tool-search';
export {
  bm25ToolIndex,
  type FoundTool,
  type ToolSearchIndex,
  type ToolSearchIndexFactory,
} from './tool-search/tool-search-index';
export {
  DEFERRED_TAG,
  type DeferOption,
  SEARCH_TOOL_NAME,
  type ToolSearchOptions,
} from './tool-search/tool-search-options';
export { VERSION } from './version';
