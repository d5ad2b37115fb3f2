import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { JSON_RPC_CODES, McpAdapterError, toProtocolError } from './errors';
import {
  type McpPromptDefinition,
  type McpPromptResult,
  promptHook,
  toGetPromptResult,
} from './mcp-prompt';
import { type McpResourceDefinition, resourceHook, toReadResourceResult } from './mcp-resource';
import type { StateSigner } from './request-state';
import type { ClientCapabilities, RoundHook } from './round-result';
import { type RoundOutcome, runRound } from './round-runner';
import { errorToCallToolResult } from './tool-content';

/** A tool as the server serves it: its MCP listing and the hook that answers each round. */
export interface ServedTool {
  descriptor: Tool;
  hook: RoundHook<Record<string, unknown>, CallToolResult>;
}

/** Where a server finds its tools (a registry may gain tools, or load toolkits, later). */
export interface ToolSource {
  list(): Promise<readonly ServedTool[]>;
  get(name: string): Promise<ServedTool | undefined>;
  /** The names known now, without loading anything. */
  names(): readonly string[];
}

/** Everything one SDK server instance is built from. */
export interface ServerDefinition {
  name: string;
  version: string;
  title?: string;
  instructions?: string;
  tools: ToolSource;
  prompts: readonly McpPromptDefinition[];
  resources: readonly McpResourceDefinition[];
  signer: StateSigner;
  /** Rounds the legacy replay runs for one 2025-era call before giving up. */
  maxRounds?: number;
  onError?: ((error: Error) => void) | undefined;
}

/** The protocol era one SDK server instance serves. */
export type ProtocolEra = 'modern' | 'legacy';

/**
 * One low-level SDK `Server` for one connection (stdio, 2025-era HTTP session) or one
 * request (2026-07-28 HTTP), answering `tools/*`, `prompts/*` and `resources/*` with the
 * round runner. The SDK's legacy shim replays `input_required` rounds to 2025-era clients
 * as real server-to-client requests on the same connection.
 */
export function createSdkServer(definition: ServerDefinition, era: ProtocolEra): Server {
  const { tools, prompts, resources, signer, onError } = definition;
  const server = new Server(
    {
      name: definition.name,
      version: definition.version,
      ...(definition.title !== undefined && { title: definition.title }),
    },
    {
      capabilities: {
        tools: {},
        ...(prompts.length > 0 && { prompts: {} }),
        ...(resources.length > 0 && { resources: {} }),
      },
      ...(definition.instructions !== undefined && { instructions: definition.instructions }),
      ...(definition.maxRounds !== undefined && {
        inputRequired: { maxRounds: definition.maxRounds },
      }),
    },
  );
  if (onError !== undefined) server.onerror = onError;

  const environment = (context: ServerContext) => ({
    signer,
    context,
    era,
    onError,
    clientCapabilities: ((context.mcpReq.envelope as Record<string, unknown> | undefined)?.[
      CLIENT_CAPABILITIES_META_KEY
    ] ??
      server.getClientCapabilities() ??
      {}) as ClientCapabilities,
  });

  server.setRequestHandler('tools/list', async () => ({
    tools: (await tools.list()).map((tool) => tool.descriptor),
  }));
  server.setRequestHandler('tools/call', async (request, context) => {
    const { name } = request.params;
    const tool = await tools.get(name);
    if (tool === undefined) throw unknownTarget('tool', name);
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const outcome = await runRound(
      { method: 'tools/call', target: name, args, hook: tool.hook },
      environment(context),
    );
    return settle(
      outcome,
      (value) => value,
      (message) => errorToCallToolResult(message),
    );
  });

  if (prompts.length > 0) {
    const byName = new Map(prompts.map((prompt) => [prompt.name, prompt]));
    server.setRequestHandler('prompts/list', () => ({
      prompts: prompts.map(({ name, title, description, arguments: promptArguments }) => ({
        name,
        ...(title !== undefined && { title }),
        ...(description !== undefined && { description }),
        ...(promptArguments !== undefined && { arguments: promptArguments }),
      })),
    }));
    server.setRequestHandler('prompts/get', async (request, context) => {
      const prompt = byName.get(request.params.name);
      if (prompt === undefined) throw unknownTarget('prompt', request.params.name);
      const args = (request.params.arguments ?? {}) as Record<string, string>;
      const outcome = await runRound<Record<string, string>, McpPromptResult>(
        { method: 'prompts/get', target: prompt.name, args, hook: promptHook(prompt) },
        environment(context),
      );
      return settle(outcome, toGetPromptResult, failure(`prompt ${prompt.name}`));
    });
  }

  if (resources.length > 0) {
    const byUri = new Map(resources.map((resource) => [resource.uri, resource]));
    server.setRequestHandler('resources/list', () => ({
      resources: resources.map(({ uri, name, title, description, mimeType }) => ({
        uri,
        name,
        ...(title !== undefined && { title }),
        ...(description !== undefined && { description }),
        ...(mimeType !== undefined && { mimeType }),
      })),
    }));
    server.setRequestHandler('resources/read', async (request, context) => {
      const resource = byUri.get(request.params.uri);
      if (resource === undefined) throw unknownResource(request.params.uri);
      const outcome = await runRound(
        {
          method: 'resources/read',
          target: resource.uri,
          args: { uri: resource.uri },
          hook: resourceHook(resource),
        },
        environment(context),
      );
      return settle(
        outcome,
        (value) => toReadResourceResult(resource, value),
        failure(`resource ${resource.uri}`),
      );
    });
  }
  return server;
}

function settle<TValue, TResult>(
  outcome: RoundOutcome<TValue>,
  onComplete: (value: TValue) => TResult,
  onFailure: (message: string, error: unknown) => TResult,
) {
  switch (outcome.type) {
    case 'complete':
      return onComplete(outcome.value);
    case 'input_required':
      return outcome.result;
    case 'failed':
      return onFailure(
        outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
        outcome.error,
      );
  }
}

/**
 * Prompts and resources have no `isError` result: a throwing hook is a JSON-RPC error —
 * an McpAdapterError's own code when it has one, -32603 otherwise.
 */
function failure(what: string) {
  return (message: string, error: unknown): never => {
    if (McpAdapterError.isInstance(error) && error.jsonRpcCode !== undefined) {
      throw toProtocolError(error);
    }
    throw toProtocolError(
      new McpAdapterError({
        code: 'adapter_error',
        message: `The ${what} failed: ${message}`,
        jsonRpcCode: JSON_RPC_CODES.internalError,
        cause: error,
      }),
    );
  };
}

/** SEP-2164: -32602 with `data` exactly `{ uri }`, which clients read as resource-not-found. */
function unknownResource(uri: string) {
  return toProtocolError(
    new McpAdapterError({
      code: 'unknown_target',
      message: `Resource not found: ${uri}`,
      jsonRpcCode: JSON_RPC_CODES.invalidParams,
      data: { uri },
    }),
  );
}

function unknownTarget(kind: string, name: string) {
  return toProtocolError(
    new McpAdapterError({
      code: 'unknown_target',
      message: `Unknown ${kind}: ${name}`,
      jsonRpcCode: JSON_RPC_CODES.invalidParams,
    }),
  );
}
