// Type-checked examples shown in the TSDoc of this package's sources (scripts/docs/examples.mjs).
import { inspectToolCall } from './call-graph';
import { canonicalJson } from './canonical-json';
import { createEnvelope, parseEnvelope } from './envelope';
import type { ExecutionPlan } from './execution-plan';
import { type JsonValue, safeParseJson } from './json';
import { cloneJson, measureJson } from './json-bounds';
import { evaluateJsonPointer, parseJsonPointer } from './json-pointer';
import { toolMessageFromResult } from './messages';
import { planFromToolCalls } from './plan-derivation';
import { PlanValidationError } from './plan-issue';
import { assertValidPlan, validateExecutionPlan } from './plan-validation';
import type { ProviderTurn } from './provider';
import { reasoningText } from './provider-parts';
import { findRefs, resolveReferences } from './refs';
import { toolOutput } from './tool-output';
import type { ToolResult } from './tool-result';
import { ToolSpecSchema } from './tool-spec';

export function inspectToolCallExample() {
  //#region inspectToolCall
  const inspection = inspectToolCall({
    id: 'call_2',
    name: 'calculator.add',
    arguments: { a: { $ref: 'call_1' } },
  });
  inspection.refTargets; // ['call_1']
  inspection.issues; // []
  //#endregion inspectToolCall
}

export function canonicalJsonExample() {
  //#region canonicalJson
  canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
  //#endregion canonicalJson
}

export function createEnvelopeExample() {
  //#region createEnvelope
  const envelope = createEnvelope('cancel', { run_id: 'run_1' });
  JSON.stringify(envelope); // {"mtp_version":"0.1.0","kind":"cancel","payload":{"run_id":"run_1"},"metadata":{}}
  //#endregion createEnvelope
}

export function parseEnvelopeExample(
  line: string,
  handle: (kind: string, payload: unknown) => void,
) {
  //#region parseEnvelope
  const parsed = parseEnvelope(line);
  if (parsed.ok) handle(parsed.value.kind, parsed.value.payload);
  else console.error(parsed.error.code, parsed.error.message);
  //#endregion parseEnvelope
}

export function mtpxErrorExample(plan: ExecutionPlan) {
  //#region MtpxError
  try {
    assertValidPlan(plan);
  } catch (error) {
    if (PlanValidationError.isInstance(error)) console.log(error.issues);
  }
  //#endregion MtpxError
}

export function measureJsonExample(deeplyNested: unknown) {
  //#region measureJson
  measureJson({ a: [1, 2] }); // { ok: true, depth: 2, bytes: 11 }
  measureJson(deeplyNested, { maxDepth: 64 }); // { ok: false, problem: 'too_deep', message: '…' }
  //#endregion measureJson
}

export function cloneJsonExample() {
  //#region cloneJson
  const copy = cloneJson({ a: [1, { b: 2 }] });
  //#endregion cloneJson
  return copy;
}

export function parseJsonPointerExample() {
  //#region parseJsonPointer
  parseJsonPointer('/items/0/a~1b'); // { ok: true, value: ['items', '0', 'a/b'] }
  //#endregion parseJsonPointer
}

export function evaluateJsonPointerExample() {
  //#region evaluateJsonPointer
  evaluateJsonPointer({ items: [{ id: 7 }] }, '/items/0/id'); // { ok: true, value: 7 }
  //#endregion evaluateJsonPointer
}

export function safeParseJsonExample() {
  //#region safeParseJson
  const parsed = safeParseJson('{"a":1');
  if (!parsed.ok) console.log(parsed.error.message); // Invalid JSON: ...
  //#endregion safeParseJson
}

export function toolMessageFromResultExample(result: ToolResult) {
  //#region toolMessageFromResult
  toolMessageFromResult(result); // { role: 'tool', tool_call_id: 'call_1', name: 'calculator.add', content: '42' }
  //#endregion toolMessageFromResult
}

export function planFromToolCallsExample() {
  //#region planFromToolCalls
  const plan = planFromToolCalls([
    { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
  ]);
  plan.batches.map((batch) => batch.calls.map((call) => call.id)); // [['call_1'], ['call_2']]
  //#endregion planFromToolCalls
}

export function validateExecutionPlanExample() {
  //#region validateExecutionPlan
  const issues = validateExecutionPlan({
    batches: [
      {
        mode: 'parallel',
        calls: [
          { id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: { $ref: 'call_2' } } },
          { id: 'call_2', name: 'calculator.add', arguments: { a: 2, b: 3 } },
        ],
      },
    ],
  });
  issues[0]?.code; // 'ref_not_earlier': call_2 runs alongside call_1, not before it
  //#endregion validateExecutionPlan
}

export function reasoningTextExample(turn: ProviderTurn) {
  //#region reasoningText
  reasoningText(turn.message.provider_parts); // "The user wants 2 + 3 …"
  //#endregion reasoningText
}

export function findRefsExample() {
  //#region findRefs
  findRefs({ a: { $ref: 'call_1' }, list: [{ $ref: 'call_2', $path: '/id' }] }); // ['call_1', 'call_2']
  //#endregion findRefs
}

export function resolveReferencesExample() {
  //#region resolveReferences
  const outputs = new Map<string, JsonValue>([['call_1', 12]]);
  resolveReferences({ a: 4, b: { $ref: 'call_1' } }, (id) => outputs.get(id));
  // { ok: true, value: { a: 4, b: 12 } }
  //#endregion resolveReferences
}

export function toolOutputExample() {
  //#region toolOutput
  return toolOutput({
    content: 'A cat',
    images: [{ url: 'https://example.com/cat.png', mime_type: 'image/png' }],
  });
  //#endregion toolOutput
}

export function toolSpecSchemaExample() {
  //#region ToolSpecSchema
  const spec = ToolSpecSchema.parse({
    name: 'calculator.add',
    description: 'Add two numbers',
    input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  });
  spec.risk_level; // 'read_only'
  //#endregion ToolSpecSchema
}
