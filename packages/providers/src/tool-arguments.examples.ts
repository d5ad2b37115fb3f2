// Type-checked examples shown in the TSDoc of `tool-arguments.ts` (scripts/docs/examples.mjs).
import { parseToolArguments } from './tool-arguments';

export function parseToolArgumentsExample() {
  //#region parseToolArguments
  parseToolArguments('{"a":15,"b":27}'); // { ok: true, arguments: { a: 15, b: 27 } }
  parseToolArguments('{"a":15,'); // { ok: false, arguments: {}, rawArguments: '{"a":15,', error: '…' }
  //#endregion parseToolArguments
}
