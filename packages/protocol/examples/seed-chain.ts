/**
 * Derives the execution plan for the seed's four-call `$ref` chain — one model response
 * computing 15 + (4 × (18 − 6)) / 3 — and shows what a model sees when it sends a cycle.
 *
 * Run: pnpm --filter @mtpx/protocol run example:seed-chain
 */
import {
  type ExecutionPlan,
  findRefs,
  PlanValidationError,
  planFromToolCalls,
  safeParseJson,
  type ToolCallInput,
  validateExecutionPlan,
} from '@mtpx/protocol';

// The native `tool_calls` of one OpenAI-compatible response, exactly as the seed shows them.
const nativeToolCalls = [
  { id: 'call_1', function: { name: 'calculator.subtract', arguments: '{"a":18,"b":6}' } },
  {
    id: 'call_2',
    function: { name: 'calculator.multiply', arguments: '{"a":4,"b":{"$ref":"call_1"}}' },
  },
  {
    id: 'call_3',
    function: { name: 'calculator.divide', arguments: '{"a":{"$ref":"call_2"},"b":3}' },
  },
  {
    id: 'call_4',
    function: { name: 'calculator.add', arguments: '{"a":15,"b":{"$ref":"call_3"}}' },
  },
];

// `function.arguments` is a JSON string at the provider boundary: parse it safely.
const calls: ToolCallInput[] = nativeToolCalls.map((native) => {
  const parsed = safeParseJson(native.function.arguments);
  if (!parsed.ok) throw parsed.error;
  return {
    id: native.id,
    name: native.function.name,
    arguments: parsed.value as ToolCallInput['arguments'],
  };
});

console.log('One model response, four native tool calls:');
for (const call of calls) {
  const refs = findRefs(call.arguments);
  const note = refs.length > 0 ? `   ← uses the output of ${refs.join(', ')}` : '';
  console.log(`  ${call.id}  ${call.name}(${JSON.stringify(call.arguments)})${note}`);
}

const plan: ExecutionPlan = planFromToolCalls(calls, { metadata: { source: 'seed example' } });

console.log(
  `\nDerived execution plan: ${plan.batches.length} batches, no extra model round between them`,
);
plan.batches.forEach((batch, level) => {
  for (const call of batch.calls) {
    const after =
      call.depends_on.length > 0 ? `after ${call.depends_on.join(', ')}` : 'starts at once';
    console.log(`  batch ${level} (${batch.mode})  ${call.id}  ${call.name.padEnd(20)} ${after}`);
  }
});

const issues = validateExecutionPlan(plan, { strict: true });
console.log(
  `\nvalidateExecutionPlan(plan, { strict: true }): ${issues.length === 0 ? 'valid' : issues}`,
);

console.log('\nWhen a model sends a cycle, it gets an error it can act on:');
try {
  planFromToolCalls([
    { id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: { $ref: 'call_3' } } },
    { id: 'call_2', name: 'calculator.add', arguments: { a: 2, b: 3 } },
    { id: 'call_3', name: 'calculator.add', arguments: { a: { $ref: 'call_1' }, b: 1 } },
  ]);
} catch (error) {
  if (!PlanValidationError.isInstance(error)) throw error;
  for (const issue of error.issues) console.log(`  [${issue.code}] ${issue.message}`);
}
