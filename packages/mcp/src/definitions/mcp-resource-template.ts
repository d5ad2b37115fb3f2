import { UriTemplate } from '@modelcontextprotocol/server';
import { McpAdapterError } from '../errors';
import type { InputRoundHook } from '../input/input-round';
import type { McpIcon } from './mcp-listing';
import type { McpResourceResult } from './mcp-resource';

/** The values of a template's variables in one URI (`{id}` → `'123'`; lists for `{list*}`). */
export type McpTemplateVariables = Record<string, string | string[]>;

/** What a template's input-round hook gets as arguments. */
export interface McpTemplateArgs {
  uri: string;
  variables: McpTemplateVariables;
}

/** Suggests values for one variable from what the user typed so far. */
export type McpCompleter = (
  value: string,
  context: { arguments: Record<string, string> },
) => readonly string[] | Promise<readonly string[]>;

/**
 * A family of resources named by an RFC 6570 URI template (`files://{path}`). Give `read`,
 * or `inputRound` to ask for input first.
 */
export interface McpResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: McpIcon[];
  /** Suggestions for each variable (`completion/complete` with `ref/resource`). */
  complete?: Record<string, McpCompleter>;
  /** Reads the resource at `uri`. */
  read?: (
    uri: string,
    variables: McpTemplateVariables,
  ) => McpResourceResult | Promise<McpResourceResult>;
  /** An input-round hook: may ask the client for input before returning `complete(contents)`. */
  inputRound?: InputRoundHook<McpTemplateArgs, McpResourceResult>;
  /** @deprecated Use `inputRound`; removed in the next minor. */
  round?: InputRoundHook<McpTemplateArgs, McpResourceResult>;
}

/** A template definition with its parsed URI template. */
export interface McpResourceTemplate extends McpResourceTemplateDefinition {
  /** The variables of `uri`, or `undefined` when the template does not match it. */
  match(uri: string): McpTemplateVariables | undefined;
}

/**
 * Defines a resource template to serve with `createMcpServer({ resourceTemplates })`.
 * Reads of a URI that no fixed resource has go to the first template that matches it.
 *
 * @example
 * ```ts source="../mcp.examples.ts#defineMcpResourceTemplate"
 * const userProfile = defineMcpResourceTemplate({
 *   uriTemplate: 'users://{id}/profile',
 *   name: 'user-profile',
 *   mimeType: 'application/json',
 *   complete: { id: (typed) => ['ada', 'alan'].filter((id) => id.startsWith(typed)) },
 *   read: (_uri, { id }) => JSON.stringify({ id }),
 * });
 * ```
 */
export function defineMcpResourceTemplate(
  definition: McpResourceTemplateDefinition,
): McpResourceTemplate {
  if (
    definition.read === undefined &&
    definition.inputRound === undefined &&
    definition.round === undefined
  ) {
    throw new McpAdapterError({
      code: 'adapter_error',
      message: `Resource template ${definition.uriTemplate} needs a read(uri, variables) or an inputRound(args, context) function.`,
    });
  }
  let template: UriTemplate;
  try {
    template = new UriTemplate(definition.uriTemplate);
  } catch (cause) {
    throw new McpAdapterError({
      code: 'adapter_error',
      message: `Resource template ${definition.uriTemplate} is not a valid RFC 6570 URI template.`,
      cause,
    });
  }
  return {
    ...definition,
    match(uri) {
      return (template.match(uri) ?? undefined) as McpTemplateVariables | undefined;
    },
  };
}

/** The hook the server runs for a template: its own input-round hook, or `read` as one round. */
export function templateHook(
  template: McpResourceTemplateDefinition,
): InputRoundHook<McpTemplateArgs, McpResourceResult> {
  const hook = template.inputRound ?? template.round;
  if (hook !== undefined) return hook;
  const read = template.read as NonNullable<McpResourceTemplateDefinition['read']>;
  return async ({ uri, variables }) => ({ type: 'complete', value: await read(uri, variables) });
}
