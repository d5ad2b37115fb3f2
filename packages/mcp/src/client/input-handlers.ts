import type { Provider } from '@mtpx/protocol';
import { McpAdapterError } from '../errors';
import type {
  FormElicitationRequest,
  SamplingRequestParams,
  UrlElicitationRequest,
} from '../input/input-requests';
import type { ElicitationValue, Root, SamplingResponse } from '../input/input-responses';
import { isModernSdkClient, type McpClient } from './mcp-client';
import { samplingFromProvider } from './provider-sampling';

/** What an elicitation asks: a form to fill in, or a URL to visit. */
export type ElicitationParams =
  | FormElicitationRequest['params']
  | (UrlElicitationRequest['params'] & { elicitationId?: string });

/** Context a client-side handler gets: the abort signal of the request it serves. */
export interface InputHandlerContext {
  signal: AbortSignal;
}

/**
 * A user's answer to an elicitation, as a handler gives it (`undefined` fields are left
 * out on the wire).
 */
export type ElicitationAnswer =
  | { action: 'accept'; content?: Record<string, ElicitationValue | undefined> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** Asks the user: resolve `accept` (with the form's content), `decline` or `cancel`. */
export type ElicitHandler = (
  params: ElicitationParams,
  context: InputHandlerContext,
) => ElicitationAnswer | Promise<ElicitationAnswer>;

/** Answers a sampling request with a completion. */
export type SampleHandler = (
  params: SamplingRequestParams,
  context: InputHandlerContext,
) => SamplingResponse | Promise<SamplingResponse>;

/** The roots to report: a fixed list, or a function that reads them when asked. */
export type RootsSource = readonly Root[] | (() => readonly Root[] | Promise<readonly Root[]>);

/** How a client fulfils a server's input requests. */
export interface InputHandlers {
  /** Elicitation (form and URL): usually asks the user. */
  elicit?: ElicitHandler;
  /** Sampling: an MTP `Provider` (its model answers) or a handler. */
  sample?: Provider | SampleHandler;
  /** Roots: a configured list or a function. */
  roots?: RootsSource;
}

const capabilityOf = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sample',
  'roots/list': 'roots',
} as const;

/**
 * Installs `handlers` on a connected client (v2 or v1), so the server's input requests are
 * fulfilled: as `input_required` rounds on 2026-07-28, as server-to-client requests on the
 * 2025 era. The client must have declared the matching capabilities when it was built
 * (see `mcpClientCapabilities`).
 */
export async function installInputHandlers(
  client: McpClient,
  handlers: InputHandlers,
): Promise<void> {
  const installs: Array<
    [keyof typeof capabilityOf, (params: never, signal: AbortSignal) => unknown]
  > = [];
  const { elicit, sample, roots } = handlers;
  if (elicit !== undefined) {
    installs.push(['elicitation/create', (params, signal) => elicit(params, { signal })]);
  }
  if (sample !== undefined) {
    const answer = typeof sample === 'function' ? sample : samplingFromProvider(sample);
    installs.push(['sampling/createMessage', (params, signal) => answer(params, { signal })]);
  }
  if (roots !== undefined) {
    installs.push([
      'roots/list',
      async () => ({ roots: [...(typeof roots === 'function' ? await roots() : roots)] }),
    ]);
  }
  if (installs.length === 0) return;

  const schemas = isModernSdkClient(client) ? undefined : await legacyRequestSchemas();
  for (const [method, handle] of installs) {
    const handler = async (request: { params?: unknown }, extra: { signal?: AbortSignal }) =>
      handle((request.params ?? {}) as never, extra?.signal ?? new AbortController().signal);
    try {
      client.setRequestHandler(schemas === undefined ? method : schemas[method], handler);
    } catch (cause) {
      throw new McpAdapterError({
        code: 'handler_not_configured',
        message: `Cannot install the ${capabilityOf[method]} handler: the client did not declare the capability for ${method}. Build the client with { capabilities: mcpClientCapabilities({ ${capabilityOf[method]}: true }) }.`,
        cause,
      });
    }
  }
}

/** The v1 SDK's request schemas (a v1 client registers handlers by schema, not by name). */
async function legacyRequestSchemas(): Promise<Record<keyof typeof capabilityOf, unknown>> {
  try {
    const types = await import('@modelcontextprotocol/sdk/types.js');
    return {
      'elicitation/create': types.ElicitRequestSchema,
      'sampling/createMessage': types.CreateMessageRequestSchema,
      'roots/list': types.ListRootsRequestSchema,
    };
  } catch (cause) {
    throw new McpAdapterError({
      code: 'adapter_error',
      message:
        'This looks like a v1 @modelcontextprotocol/sdk client, but that package cannot be imported from @mtpx/mcp; install it next to @mtpx/mcp.',
      cause,
    });
  }
}
