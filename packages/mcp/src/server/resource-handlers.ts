import type { ReadResourceResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { McpCacheHint } from '../definitions/mcp-listing';
import {
  type McpResourceDefinition,
  resourceHook,
  toReadResourceResult,
} from '../definitions/mcp-resource';
import { type McpResourceTemplate, templateHook } from '../definitions/mcp-resource-template';
import { type RoundEnvironment, runRound } from '../input/input-round-runner';
import { failure, settle, unknownResource } from './served-results';
import type { ServerEvents } from './server-events';

/** What the resource handlers of one SDK server are built from. */
export interface ResourceServing {
  resources: readonly McpResourceDefinition[];
  templates: readonly McpResourceTemplate[];
  environment: (context: ServerContext) => RoundEnvironment;
  era: 'modern' | 'legacy';
  events: ServerEvents;
}

/**
 * Answers `resources/list`, `resources/templates/list` and `resources/read` (a fixed URI
 * first, then the first template whose RFC 6570 pattern matches), and on the 2025 era
 * `resources/subscribe` / `unsubscribe`: the connection then gets
 * `notifications/resources/updated` for the URIs it subscribed to. (2026-07-28 clients
 * subscribe with `subscriptions/listen`, which the HTTP handler serves.)
 */
export function installResourceHandlers(server: Server, serving: ResourceServing): void {
  const { resources, templates, environment } = serving;
  const byUri = new Map(resources.map((resource) => [resource.uri, resource]));

  server.setRequestHandler('resources/list', () => ({
    resources: resources.map(({ uri, name, title, description, mimeType, icons }) => ({
      uri,
      name,
      ...(title !== undefined && { title }),
      ...(description !== undefined && { description }),
      ...(mimeType !== undefined && { mimeType }),
      ...(icons !== undefined && { icons }),
    })),
  }));
  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: templates.map(
      ({ uriTemplate, name, title, description, mimeType, icons }) => ({
        uriTemplate,
        name,
        ...(title !== undefined && { title }),
        ...(description !== undefined && { description }),
        ...(mimeType !== undefined && { mimeType }),
        ...(icons !== undefined && { icons }),
      }),
    ),
  }));

  server.setRequestHandler('resources/read', async (request, context) => {
    const { uri } = request.params;
    const resource = byUri.get(uri);
    if (resource !== undefined) {
      const outcome = await runRound(
        { method: 'resources/read', target: uri, args: { uri }, hook: resourceHook(resource) },
        environment(context),
      );
      return settle(
        outcome,
        (value) =>
          serving.era === 'modern'
            ? withCacheHint(toReadResourceResult(resource, value), resource.cacheHint)
            : toReadResourceResult(resource, value),
        failure(`resource ${uri}`),
      );
    }
    for (const template of templates) {
      const variables = template.match(uri);
      if (variables === undefined) continue;
      const outcome = await runRound(
        {
          method: 'resources/read',
          target: uri,
          args: { uri, variables },
          hook: templateHook(template),
        },
        environment(context),
      );
      return settle(
        outcome,
        (value) =>
          toReadResourceResult(
            { uri, ...(template.mimeType && { mimeType: template.mimeType }) },
            value,
          ),
        failure(`resource ${uri}`),
      );
    }
    throw unknownResource(uri);
  });

  if (serving.era === 'legacy') installSubscriptions(server, serving.events);
}

function installSubscriptions(server: Server, events: ServerEvents): void {
  const subscribed = new Set<string>();
  server.setRequestHandler('resources/subscribe', (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  const stop = events.listen((event) => {
    if (event.kind === 'resource_updated' && subscribed.has(event.uri)) {
      void server.sendResourceUpdated({ uri: event.uri }).catch(() => undefined);
    }
  });
  const previous = server.onclose;
  server.onclose = () => {
    stop();
    previous?.();
  };
}

/** A resource's own hint rides on its result (the SDK fills the rest on 2026-07-28). */
function withCacheHint(result: ReadResourceResult, hint: McpCacheHint | undefined) {
  if (hint === undefined) return result;
  return {
    ...result,
    ...(hint.ttlMs !== undefined && { ttlMs: hint.ttlMs }),
    ...(hint.cacheScope !== undefined && { cacheScope: hint.cacheScope }),
  } as ReadResourceResult;
}
