// Type-checked examples shown in the TSDoc of `result-cache.ts` (scripts/docs/examples.mjs).
import { type AnyTool, createExecutor, InMemoryResultCache } from '@mtpx/executor';

export function inMemoryResultCacheExample(tools: AnyTool[]) {
  //#region InMemoryResultCache
  const executor = createExecutor({
    tools,
    cache: new InMemoryResultCache({ maxEntries: 10_000 }),
  });
  //#endregion InMemoryResultCache
  return executor;
}
