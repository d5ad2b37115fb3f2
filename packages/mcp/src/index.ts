export type { McpLogEntry } from './client/client-notifications';
export {
  type ElicitationAnswer,
  type ElicitationParams,
  type ElicitHandler,
  type InputHandlerContext,
  type InputHandlers,
  installInputHandlers,
  type RootsSource,
  type SampleHandler,
} from './client/input-handlers';
export {
  type McpCallOptions,
  type McpClient,
  type McpClientCapabilityOptions,
  type McpClientEra,
  type McpClientOptionsInput,
  type McpToolDescriptor,
  mcpClientCapabilities,
  mcpClientOptions,
} from './client/mcp-client';
export { type McpToolsOptions, mcpTools } from './client/mcp-tools';
export { samplingFromProvider } from './client/provider-sampling';
export type {
  McpCacheableMethod,
  McpCacheHint,
  McpIcon,
  McpToolListingOptions,
} from './definitions/mcp-listing';
export {
  defineMcpPrompt,
  type McpPromptArgument,
  type McpPromptDefinition,
  type McpPromptMessage,
  type McpPromptResult,
} from './definitions/mcp-prompt';
export {
  defineMcpResource,
  type McpResourceArgs,
  type McpResourceContent,
  type McpResourceDefinition,
  type McpResourceResult,
} from './definitions/mcp-resource';
export {
  defineMcpResourceTemplate,
  type McpCompleter,
  type McpResourceTemplate,
  type McpResourceTemplateDefinition,
  type McpTemplateArgs,
  type McpTemplateVariables,
} from './definitions/mcp-resource-template';
export {
  defineMcpTool,
  type McpTool,
  type McpToolDefinition,
} from './definitions/mcp-tool';

export {
  JSON_RPC_CODES,
  McpAdapterError,
  type McpAdapterErrorCode,
  type McpAdapterErrorOptions,
} from './errors';
export type { BearerTokenCheck } from './http/http-guard';
export {
  createMcpHttpHandler,
  type McpHttpHandler,
  type McpHttpHandlerOptions,
} from './http/http-handler';
export { type McpHttpServer, type ServeMcpOptions, serveMcp } from './http/serve-mcp';
export {
  type ElicitationSchema,
  type FormElicitationRequest,
  formElicitation,
  type InputRequest,
  type InputRequests,
  type RootsRequest,
  roots,
  type SamplingMessage,
  type SamplingRequest,
  type SamplingRequestParams,
  sampling,
  type UrlElicitationRequest,
  urlElicitation,
} from './input/input-requests';
export {
  type ElicitationResponse,
  type ElicitationValue,
  type InputResponse,
  type InputResponseView,
  type Root,
  type RootsResponse,
  type SamplingResponse,
  samplingText,
} from './input/input-responses';
export {
  type ClientCapabilities,
  type CompleteInputRound,
  type CompleteRound,
  complete,
  type InputRequiredRound,
  type InputRoundContext,
  type InputRoundHook,
  type InputRoundResult,
  inputRequired,
  type McpLogLevel,
  type ProgressOptions,
  type RoundContext,
  type RoundHook,
  type RoundResult,
} from './input/input-round';
export {
  type CreateMcpServerOptions,
  createMcpServer,
} from './server/create-mcp-server';
export type { McpToolServer } from './server/mcp-tool-server';
export type { ProtocolEra } from './server/sdk-server';
export {
  type McpStdioServer,
  type ServeMcpStdioOptions,
  serveMcpStdio,
} from './server/serve-stdio';
export type { McpServerEvent, McpServerNotifier } from './server/server-events';
export { VERSION } from './version';
