import type { Executor } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { AgentError } from '../agent-error';
import { ToolSearch } from './tool-search';
import { type ToolSearchOptions, toolSearchSettingsOf } from './tool-search-options';

/**
 * The agent's tool search for `createAgent({ toolSearch })`, its search tool registered on
 * the executor (unless the provider searches itself); `undefined` when off.
 */
export function toolSearchOf(
  option: boolean | ToolSearchOptions | undefined,
  executor: Executor,
  provider: Provider,
): ToolSearch | undefined {
  const settings = toolSearchSettingsOf(option);
  if (settings === undefined) return undefined;
  const toolSearch = new ToolSearch(settings, executor, provider);
  if (!toolSearch.native) {
    if (executor.registry.has(settings.name)) {
      throw new AgentError({
        code: 'invalid_option',
        message: `A tool named "${settings.name}" is already registered; name the search tool otherwise with toolSearch.name.`,
      });
    }
    executor.registry.register(toolSearch.searchTool());
  }
  return toolSearch;
}
