import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { McpCacheableMethod, McpCacheHint, McpIcon } from '../definitions/mcp-listing';
import {
  type McpPromptDefinition,
  type McpPromptResult,
  promptHook,
  toGetPromptResult,
} from '../definitions/mcp-prompt';
import type { McpResourceDefinition } from '../definitions/mcp-resource';
import type { McpResourceTemplate } from '../definitions/mcp-resource-template';
import { errorToCallToolResult } from '../definitions/tool-content';
import type { ClientCapabilities, InputRoundHook } from '../input/input-round';
import { type RoundEnvironment, runRound } from '../input/input-round-runner';
import type { StateSigner } from '../input/request-state';
import { installCompletionHandler } from './completion-handler';
import { installResourceHandlers } from './resource-handlers';
import { failure, settle, unknownTarget } from './served-results';
import type { McpServerEvent, ServerEvents } from './server-events';

/** A tool as the server serves it: its MCP listing and the hook that answers each round. */
export interface ServedTool {
  descriptor: Tool;
  hook: InputRoundHook<Record<string, unknown>, CallToolResult>;
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
  description?: string;
  websiteUrl?: string;
  icons?: McpIcon[];
  instructions?: string;
  tools: ToolSource;
  prompts: readonly McpPromptDefinition[];
  resources: readonly McpResourceDefinition[];
  resourceTemplates: readonly McpResourceTemplate[];
  /** Per-list caching hints for 2026-07-28 results. */
  cacheHints?: Partial<Record<McpCacheableMethod, McpCacheHint>>;
  signer: StateSigner;
  /** Change events, fanned out to every live connection. */
  events: ServerEvents;
  /** Rounds the legacy replay runs for one 2025-era call before giving up. */
  maxRounds?: number;
  onError?: ((error: Error) => void) | undefined;
}

/** The protocol era one SDK server instance serves. */
export type ProtocolEra = 'modern' | 'legacy';

/**
 * One low-level SDK `Server` for one connection (stdio, 2025-era HTTP session) or one
 * request (2026-07-28 HTTP), answering `tools/*`, `prompts/*`, `resources/*`,
 * `completion/complete` and logging with the round runner. The SDK's legacy shim replays
 * `input_required` rounds to 2025-era clients as real server-to-client requests on the
 * same connection; a 2025-era connection also gets the server's change notifications.
 */
export function createSdkServer(definition: ServerDefinition, era: ProtocolEra): Server {
  const { tools, prompts, resources, resourceTemplates, signer, onError } = definition;
  const hasResources = resources.length > 0 || resourceTemplates.length > 0;
  const server = new Server(
    {
      name: definition.name,
      version: definition.version,
      ...(definition.title !== undefined && { title: definition.title }),
      ...(definition.description !== undefined && { description: definition.description }),
      ...(definition.websiteUrl !== undefined && { websiteUrl: definition.websiteUrl }),
      ...(definition.icons !== undefined && { icons: definition.icons }),
    },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        ...(prompts.length > 0 && { prompts: { listChanged: true } }),
        ...(hasResources && { resources: { subscribe: true, listChanged: true } }),
        ...((prompts.length > 0 || resourceTemplates.length > 0) && { completions: {} }),
      },
      ...(definition.instructions !== undefined && { instructions: definition.instructions }),
      ...(definition.cacheHints !== undefined && { cacheHints: definition.cacheHints }),
      ...(definition.maxRounds !== undefined && {
        inputRequired: { maxRounds: definition.maxRounds },
      }),
    },
  );
  if (onError !== undefined) server.onerror = onError;

  const environment = (context: ServerContext): RoundEnvironment => ({
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
      prompts: prompts.map(({ name, title, description, icons, arguments: promptArguments }) => ({
        name,
        ...(title !== undefined && { title }),
        ...(description !== undefined && { description }),
        ...(icons !== undefined && { icons }),
        ...(promptArguments !== undefined && {
          arguments: promptArguments.map(({ complete: _complete, ...argument }) => argument),
        }),
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

  if (hasResources) {
    installResourceHandlers(server, {
      resources,
      templates: resourceTemplates,
      environment,
      era,
      events: definition.events,
    });
  }
  if (prompts.length > 0 || resourceTemplates.length > 0) {
    installCompletionHandler(server, prompts, resourceTemplates);
  }
  if (era === 'legacy') forwardListChanges(server, definition.events);
  return server;
}

/** A 2025-era connection hears of list changes as notifications on the connection. */
function forwardListChanges(server: Server, events: ServerEvents): void {
  const send: Partial<Record<McpServerEvent['kind'], () => Promise<void>>> = {
    tools_list_changed: () => server.sendToolListChanged(),
    prompts_list_changed: () => server.sendPromptListChanged(),
    resources_list_changed: () => server.sendResourceListChanged(),
  };
  const stop = events.listen((event) => {
    void send[event.kind]?.().catch(() => undefined);
  });
  const previous = server.onclose;
  server.onclose = () => {
    stop();
    previous?.();
  };
}
