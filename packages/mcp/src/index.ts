export type { McpLogEntry } from './client-notifications';
export {
  type CreateMcpServerOptions,
  createMcpServer,
  toolResultToCallToolResult,
} from './create-mcp-server';
export {
  JSON_RPC_CODES,
  McpAdapterError,
  type McpAdapterErrorCode,
  type McpAdapterErrorOptions,
} from './errors';
export type { BearerTokenCheck } from './http-guard';
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
} from './http-handler';
export {
  type ElicitationAnswer,
  type ElicitationParams,
  type ElicitHandler,
  type InputHandlerContext,
  type InputHandlers,
  installInputHandlers,
  type RootsSource,
  type SampleHandler,
} from './input-handlers';
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
  type McpCallOptions,
  type McpClient,
  type McpClientCapabilityOptions,
  type McpClientEra,
  type McpClientOptionsInput,
  type McpToolDescriptor,
  mcpClientCapabilities,
  mcpClientOptions,
} from './mcp-client';
export type { McpCacheableMethod, McpCacheHint, McpIcon } from './mcp-listing';
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
export {
  defineMcpResourceTemplate,
  type McpCompleter,
  type McpResourceTemplate,
  type McpResourceTemplateDefinition,
  type McpTemplateArgs,
  type McpTemplateVariables,
} from './mcp-resource-template';
export { defineMcpTool, isMcpTool, type McpTool, type McpToolDefinition } from './mcp-tool';
export { isMcpToolServer, type McpToolServer } from './mcp-tool-server';
export { type McpToolsOptions, mcpTools } from './mcp-tools';
export { samplingFromProvider } from './provider-sampling';
export {
  type ClientCapabilities,
  type CompleteRound,
  complete,
  type InputRequiredRound,
  inputRequired,
  type McpLogLevel,
  type ProgressOptions,
  type RoundContext,
  type RoundHook,
  type RoundResult,
} from './round-result';
export type { ProtocolEra } from './sdk-server';
export { type McpHttpServer, type ServeMcpOptions, serveMcp } from './serve-mcp';
export { type McpStdioServer, type ServeMcpStdioOptions, serveMcpStdio } from './serve-stdio';
export type { McpServerEvent, McpServerNotifier } from './server-events';
export type { McpToolListingOptions } from './tool-listing';
export { VERSION } from './version';
