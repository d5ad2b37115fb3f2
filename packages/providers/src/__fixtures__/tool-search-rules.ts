// What the real APIs refuse in a request with deferred tools, as the tests' servers apply
// it. Where each message comes from: __fixtures__/SOURCES.md ("Tool search").
import type { JsonResponseScript } from '../testing/model-server';

type Json = Record<string, unknown>;

const badRequest = (body: unknown): JsonResponseScript => ({
  type: 'json',
  status: 400,
  headers: { 'x-should-retry': 'false' },
  body,
});

const toolsOf = (body: Json): Json[] => (Array.isArray(body.tools) ? (body.tools as Json[]) : []);

/**
 * The Messages API with deferred tools: at least one tool must not be deferred (the search
 * tool itself), and a deferred tool may not carry a `cache_control` breakpoint.
 */
export function anthropicDeferredToolsRule(body: Json): JsonResponseScript | undefined {
  const tools = toolsOf(body);
  const deferred = tools.filter((tool) => tool.defer_loading === true);
  if (deferred.length === 0) return undefined;
  const refuse = (message: string) =>
    badRequest({ type: 'error', error: { type: 'invalid_request_error', message } });
  if (deferred.length === tools.length) {
    return refuse(
      'At least one tool must have defer_loading=false. All tools cannot be deferred.',
    );
  }
  const cached = tools.findIndex((tool) => tool.defer_loading === true && 'cache_control' in tool);
  if (cached >= 0) {
    return refuse(`tools.${cached}: cache_control cannot be set on a tool with defer_loading=true.`);
  }
  return undefined;
}

/**
 * The Responses API with deferred tools: deferred functions need `{ "type": "tool_search" }`
 * among the tools, and a function call the API made in a namespace (a function its search
 * loaded) must come back with that `namespace`.
 */
export function responsesDeferredToolsRule(
  body: Json,
  issuedCalls: ReadonlyMap<string, Json>,
): JsonResponseScript | undefined {
  const tools = toolsOf(body);
  const refuse = (message: string, param: string) =>
    badRequest({ error: { message, type: 'invalid_request_error', param, code: null } });
  if (
    tools.some((tool) => tool.defer_loading === true) &&
    !tools.some((tool) => tool.type === 'tool_search')
  ) {
    return refuse(
      "Invalid Value: 'tools.defer_loading'. Deferred tools require tools.tool_search.",
      'tools',
    );
  }
  const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
  for (const [position, item] of input.entries()) {
    if (item.type !== 'function_call') continue;
    const issued = issuedCalls.get(String(item.call_id));
    if (typeof issued?.namespace === 'string' && item.namespace !== issued.namespace) {
      return refuse(
        `Missing namespace for function_call '${String(item.name)}'. It does not exist in the default namespace. Round-trip the model's function_call item with its namespace field included.`,
        `input[${position}].namespace`,
      );
    }
  }
  return undefined;
}
