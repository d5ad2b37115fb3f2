export {
  JSON_RPC_CODES,
  McpAdapterError,
  type McpAdapterErrorCode,
  type McpAdapterErrorOptions,
} from './errors';
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
} from './http-handler';
export {
  type ElicitationSchema,
  type FormElicitationRequest,
  formElicitation,
  type InputRequest,
  type InputRequestKind,
  type InputRequests,
  inputRequestKind,
  type RootsRequest,
  roots,
  type SamplingMessage,
  type SamplingRequest,
  type SamplingRequestParams,
  sampling,
  type UrlElicitationRequest,
  urlElicitation,
} from './input-requests';
export {
  type ElicitationResponse,
  type ElicitationValue,
  type InputResponse,
  type InputResponseView,
  type Root,
  type RootsResponse,
  type SamplingResponse,
  samplingText,
} from './input-responses';
export {
  defineMcpPrompt,
  type McpPromptArgument,
  type McpPromptDefinition,
  type McpPromptMessage,
  type McpPromptResult,
} from './mcp-prompt';
export {
  defineMcpResource,
  type McpResourceArgs,
  type McpResourceContent,
  type McpResourceDefinition,
  type McpResourceResult,
} from './mcp-resource';
export { isMcpToolServer, type McpToolServer } from './mcp-tool-server';
export {
  type ClientCapabilities,
  type CompleteRound,
  complete,
  type InputRequiredRound,
  inputRequired,
  type ProgressOptions,
  type RoundContext,
  type RoundHook,
  type RoundResult,
} from './round-result';
export type { ProtocolEra } from './sdk-server';
export { type McpHttpServer, type ServeMcpOptions, serveMcp } from './serve-mcp';
export { type McpStdioServer, type ServeMcpStdioOptions, serveMcpStdio } from './serve-stdio';
