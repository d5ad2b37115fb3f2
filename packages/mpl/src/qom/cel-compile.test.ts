import { join } from 'node:path';
import { type CelInput, celEnv, isCelError, parse, plan } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { JsonValue } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { builtinSTypesDirectory, readSTypeDirectory } from '../registry/registry-loader';
import { toCelInput } from './assertions';
import { type CelAstExpr, CelEvalError, compileCel, isTruthyJson } from './cel-compile';

const environment = celEnv({ funcs: strings });

/** @bufbuild/cel's verdict: passed (truthy, as assertions judge) or failed, and whether it erred. */
type Program = (bindings: Record<string, CelInput>) => unknown;
const planned = new Map<string, Program>();
const compiled = new Map<string, ReturnType<typeof compileCel>>();

function reference(expression: string, payload: JsonValue): { passed: boolean; error: boolean } {
  let program = planned.get(expression);
  if (!program) {
    program = plan(environment, parse(expression)) as Program;
    planned.set(expression, program);
  }
  let value: unknown;
  try {
    value = program({ payload: toCelInput(payload), metadata: toCelInput({}) });
  } catch {
    return { passed: false, error: true };
  }
  if (isCelError(value)) return { passed: false, error: true };
  const plain = value as { size?: number } | bigint | number | string | boolean | null;
  const truthy =
    plain !== null &&
    plain !== false &&
    plain !== 0n &&
    plain !== 0 &&
    plain !== '' &&
    !(typeof plain === 'object' && 'size' in plain && plain.size === 0);
  return { passed: truthy, error: false };
}

function fast(expression: string, payload: JsonValue) {
  if (!compiled.has(expression))
    compiled.set(expression, compileCel(parse(expression).expr as unknown as CelAstExpr));
  const program = compiled.get(expression);
  if (!program) return undefined;
  const value = program({ payload, metadata: {} });
  if (value instanceof CelEvalError) return { passed: false, error: true };
  return { passed: isTruthyJson(value), error: false };
}

async function registryExpressions(): Promise<string[]> {
  const folders = [
    builtinSTypesDirectory(),
    join(import.meta.dirname, '../../../mpl-proxy/src/__fixtures__/reference-registry'),
  ];
  const expressions: string[] = [];
  for (const folder of folders) {
    for (const definition of await readSTypeDirectory(folder)) {
      const set = definition.assertions as
        | { assertions?: Array<{ expression: string }> }
        | undefined;
      for (const assertion of set?.assertions ?? []) expressions.push(assertion.expression);
    }
  }
  return expressions;
}

async function samplePayloads(): Promise<JsonValue[]> {
  const payloads: JsonValue[] = [{}, null, [], 'text', 3];
  for (const definition of await readSTypeDirectory(builtinSTypesDirectory())) {
    for (const sample of [...definition.examples, ...definition.negatives]) {
      payloads.push(sample.payload);
      if (sample.payload && typeof sample.payload === 'object' && !Array.isArray(sample.payload)) {
        // The same payload with each member removed, nulled and given a wrong type.
        for (const key of Object.keys(sample.payload)) {
          const { [key]: _removed, ...rest } = sample.payload;
          payloads.push(rest, { ...rest, [key]: null }, { ...rest, [key]: '  ' });
        }
      }
    }
  }
  payloads.push(
    { tool_name: 'make_payment', tool_version: 'v1', arguments: {} },
    { tool_name: 'make_payment', tool_version: 'x', arguments: {}, context: { user_id: 'u' } },
    {
      tool_name: '_x',
      tool_version: 'v2',
      arguments: {},
      constraints: { timeout_ms: 5, max_retries: 9, idempotent: false },
    },
    { goal: ' ', steps: [{ stepId: 1, dependsOn: [1] }, { stepId: 1 }] },
    {
      query: 'q',
      context: { timeRange: { start: '2025-01-01T00:00:00Z', end: '2024-01-01T00:00:00.5+01:00' } },
    },
    { query: 'q', context: { timeRange: { start: 'yesterday', end: '2024-01-01T00:00:00Z' } } },
  );
  return payloads;
}

const handwritten = [
  'payload.a.exists_one(x, x > 1)',
  'payload.a.map(x, x).size() == 2',
  "'k' in payload && payload.k == 1.0",
  "payload.a[0] == 1 && payload.m['k'] != null",
  "payload.s.matches('^[a-z]+$') ? payload.s.size() : 0",
  "payload.s.lowerAscii().startsWith('ab') || payload.s.endsWith('z') || payload.s.contains('q')",
  'has(payload.m.k) && !has(payload.m.z)',
  "payload.x < 'b' && payload.b == true",
  '[1, 2, 3].all(i, i in payload.a) || payload.a == [1, 2]',
  "payload.m == {'k': 1}",
  // Names that Object.prototype also has must be the payload's own to be found.
  'has(payload.constructor) || has(payload.toString) || has(payload.__proto__)',
  'payload.constructor == 1',
  // Code points, not UTF-16 units; errors inside list literals; nested comprehensions.
  'payload.s.size() == 3',
  '[payload.nope, 1].size() == 2',
  'payload.a.all(x, payload.a.exists(y, y >= x)) && payload.a.filter(x, x != 2).size() >= 0',
  "payload.a.map(x, [x]).size() == payload.a.size() && !(payload.s == 'abz')",
];

const handwrittenPayloads: JsonValue[] = [
  { a: [1, 2], m: { k: 1 }, s: 'abz', x: 'a', b: true, k: 1 },
  { a: [2, 3], m: { k: null }, s: 'ABq', x: 'c', b: false },
  { a: [], m: {}, s: 'Zz9', x: 1 },
  { a: 'no', m: [1], s: 5 },
  { a: [1, 2], s: 'a\ud83d\ude00b', constructor: 1, toString: 'own', __proto__: null } as never,
  JSON.parse('{"__proto__": {"k": 1}, "s": "\\ud800x", "a": [3]}'),
  {},
];

describe('compileCel against @bufbuild/cel', () => {
  it('agrees on every registry assertion over examples, negatives and their mutations', async () => {
    const expressions = await registryExpressions();
    const payloads = await samplePayloads();
    let compared = 0;
    for (const expression of expressions) {
      for (const payload of payloads) {
        const ours = fast(expression, payload);
        expect(ours, `${expression} should compile`).toBeDefined();
        expect(ours, `${expression} on ${JSON.stringify(payload)}`).toEqual(
          reference(expression, payload),
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
  }, 20_000);

  it('agrees on macros, maps, lists, indexing and string functions', () => {
    for (const expression of handwritten)
      for (const payload of handwrittenPayloads) {
        const ours = fast(expression, payload);
        if (ours === undefined) continue;
        expect(ours, `${expression} on ${JSON.stringify(payload)}`).toEqual(
          reference(expression, payload),
        );
      }
  });

  it('leaves arithmetic, uints and unknown functions to the full planner', () => {
    for (const expression of [
      'payload.a + 1 > 2',
      '1u == payload.n',
      'int(payload.s) == 1',
      'payload.d / 2 == 1',
    ])
      expect(
        compileCel(parse(expression).expr as unknown as CelAstExpr),
        expression,
      ).toBeUndefined();
  });
});
