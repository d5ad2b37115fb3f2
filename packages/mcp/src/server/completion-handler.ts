import type { Server } from '@modelcontextprotocol/server';
import type { McpPromptDefinition } from '../definitions/mcp-prompt';
import type { McpCompleter, McpResourceTemplate } from '../definitions/mcp-resource-template';

/** The most values one `completion/complete` answer carries (the spec's limit). */
const MAX_VALUES = 100;

/**
 * Answers `completion/complete` for prompt arguments (`ref/prompt`) and template variables
 * (`ref/resource`) from their `complete` functions; an argument without one, or an
 * unknown reference, completes to no values.
 */
export function installCompletionHandler(
  server: Server,
  prompts: readonly McpPromptDefinition[],
  templates: readonly McpResourceTemplate[],
): void {
  server.setRequestHandler('completion/complete', async (request) => {
    const { ref, argument } = request.params;
    const context = { arguments: { ...(request.params.context?.arguments ?? {}) } };
    let completer: McpCompleter | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = prompts.find((candidate) => candidate.name === ref.name);
      completer = prompt?.arguments?.find((item) => item.name === argument.name)?.complete;
    } else {
      const template = templates.find((candidate) => candidate.uriTemplate === ref.uri);
      completer = template?.complete?.[argument.name];
    }
    const values = completer === undefined ? [] : [...(await completer(argument.value, context))];
    return {
      completion: {
        values: values.slice(0, MAX_VALUES),
        total: values.length,
        hasMore: values.length > MAX_VALUES,
      },
    };
  });
}
