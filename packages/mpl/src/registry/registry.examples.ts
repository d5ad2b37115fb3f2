// Type-checked examples shown in the TSDoc of `registry.ts` and `stype-id.ts`
// (scripts/docs/examples.mjs).
import { STypeRegistry } from './registry';
import { parseSTypeId } from './stype-id';

export async function sTypeRegistryExample() {
  //#region STypeRegistry
  const registry = await STypeRegistry.load();
  registry.validate('org.agent.TaskPlan.v1', { goal: 'x' }).errors;
  // [{ path: '/planId', message: 'is required', … }, { path: '/steps', … }]
  //#endregion STypeRegistry
}

export function parseSTypeIdExample() {
  //#region parseSTypeId
  const parsed = parseSTypeId('com.acme.finance.Trade.v2');
  if (parsed.ok) parsed.value.namespace; // 'com.acme'
  //#endregion parseSTypeId
}
