// Type-checked examples shown in the TSDoc of `tool-names.ts` (scripts/docs/examples.mjs).
import { createToolNameMapping, sanitizeToolName } from './tool-names';

export function sanitizeToolNameExample() {
  //#region sanitizeToolName
  sanitizeToolName('calculator.add'); // 'calculator_add'
  //#endregion sanitizeToolName
}

export function createToolNameMappingExample() {
  //#region createToolNameMapping
  const names = createToolNameMapping(['calculator.add', 'calculator_add']);
  names.toProvider('calculator.add'); // 'calculator_add_2'
  names.fromProvider('calculator_add_2'); // 'calculator.add'
  names.fromProvider('no_such_tool'); // 'no_such_tool'
  //#endregion createToolNameMapping
}
