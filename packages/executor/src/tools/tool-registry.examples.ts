// Type-checked examples shown in the TSDoc of `tool-registry.ts` (scripts/docs/examples.mjs).
import { type AnyTool, ToolRegistry } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';

export async function toolRegistryExample(add: AnyTool) {
  //#region ToolRegistry
  const registry = new ToolRegistry([add, calculatorToolkit()]);
  await registry.resolve('calculator.sqrt'); // loads the calculator toolkit, returns its sqrt tool
  registry.list(); // ToolSpecs for a provider
  //#endregion ToolRegistry
  return registry;
}
