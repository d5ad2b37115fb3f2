import { createExecutor, defineTool } from '@mtpx/executor';
import {
  type AssistantToolCall,
  canonicalJson,
  type FinishReason,
  PlanValidationError,
  type Provider,
  planFromToolCalls,
  resolveReferences,
  toolMessageFromResult,
} from '@mtpx/protocol';
import { measureJson, scanReferences } from '@mtpx/protocol/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { objectProvider } from '../__fixtures__/object-provider';
import type { AgentEvent } from '../events/agent-events';
import { createAgent } from '../index';

// The seeded fuzz property of issue 13: ≥ 10,000 generated model responses — random ids,
// names and argument values, deep and huge values, `__proto__` keys, cycles, references to
// nowhere, odd pointers, any finish reason — through protocol, executor and agent.
// A failure prints its seed and path; `FUZZ_SEED=<seed> FUZZ_PATH=<path>` replays it.
const seed = Number(process.env.FUZZ_SEED ?? 13_2026);
// MTPX_TEST_VOLUME: the share of that volume this run takes (vitest.shared.ts).
const numRuns = Number(
  process.env.FUZZ_RUNS ?? Math.ceil(10_000 * Number(process.env.MTPX_TEST_VOLUME ?? 1)),
);
const path = process.env.FUZZ_PATH;

const limits = { maxDepth: 64, maxArgumentBytes: 32 * 1024, maxOutputBytes: 64 * 1024 };

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { a: value } : [value];
  return value;
}

const ids = fc.oneof(
  fc.constantFrom('call_1', 'call_2', 'call_3', 'call_9', 'dup', '', '__proto__', 'constructor'),
  fc.string({ maxLength: 6 }),
);
const names = fc.constantFrom(
  'calc.add',
  'calc.echo',
  'calc.deep',
  'notes.write',
  'nope',
  '',
  '__proto__',
  'toString',
);
const pointers = fc.constantFrom('', '/a', '/0', '/a/0', '/~2', 'a', '/-', '/__proto__/x', '/~1');
const references = fc.oneof(
  ids.map(($ref) => ({ $ref })),
  fc.record({ $ref: ids, $path: pointers }),
  fc.constantFrom({ $ref: 5 }, { $ref: '' }, { $ref: 'call_1', $path: 7 }),
);
const leaves = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.boolean(),
  references,
);
/**
 * How to make one arguments value. Deep, huge, cyclic and `__proto__` values are made from
 * their recipe inside the property, so a failure prints (and shrinks) the short recipe.
 */
type ArgumentsRecipe =
  | { kind: 'value'; value: unknown }
  | { kind: 'deep'; depth: number; leaf: unknown }
  | { kind: 'huge' }
  | { kind: 'cycle' }
  | { kind: 'parsed'; text: string };

const argumentRecipes: fc.Arbitrary<ArgumentsRecipe> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({ a: fc.oneof(fc.integer(), references), b: fc.integer() })
      .map((value) => ({ kind: 'value' as const, value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .dictionary(fc.string({ maxLength: 4 }), leaves, { maxKeys: 4 })
      .map((value) => ({ kind: 'value' as const, value })),
  },
  {
    weight: 1,
    arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: 'value' as const, value })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      depth: fc.constantFrom(63, 64, 65, 200, 5_000),
      leaf: leaves,
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'huge' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'cycle' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('parsed' as const),
      text: fc.constantFrom(
        '{"__proto__":{"polluted":true}}',
        '{"a":{"__proto__":{"$ref":"call_1"}},"b":1}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        '{"__proto__":{"$ref":"call_1","$path":"/__proto__"}}',
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(null, 'text', 42, [1, 2])
      .map((value) => ({ kind: 'value' as const, value })),
  },
);

function materialize(recipe: ArgumentsRecipe): unknown {
  switch (recipe.kind) {
    case 'value':
      return recipe.value;
    case 'deep':
      return { deep: nested(recipe.depth, recipe.leaf) };
    case 'huge':
      return { huge: 'x'.repeat(40_000) };
    case 'cycle': {
      const cycle: Record<string, unknown> = { a: 1 };
      cycle.self = cycle;
      return cycle;
    }
    case 'parsed':
      return JSON.parse(recipe.text) as unknown;
  }
}

const calls = fc.record({
  id: fc.oneof({ weight: 9, arbitrary: ids }, { weight: 1, arbitrary: fc.constantFrom(5, null) }),
  name: names,
  arguments: argumentRecipes,
  depends_on: fc.oneof(
    { weight: 6, arbitrary: fc.constant([]) },
    { weight: 3, arbitrary: fc.array(ids, { maxLength: 2 }) },
    { weight: 1, arbitrary: fc.constantFrom('call_1', [5]) },
  ),
  arguments_error: fc.option(fc.constant('The arguments are not valid JSON.'), { freq: 10 }),
});

type CallRecipe = typeof calls extends fc.Arbitrary<infer T> ? T : never;

/** The call a provider would hand over, made from its generated description. */
function callOf(generated: CallRecipe): AssistantToolCall {
  const { arguments_error: argumentsError, arguments: recipe, ...rest } = generated;
  const call = { ...rest, arguments: materialize(recipe) };
  return (argumentsError === null
    ? call
    : { ...call, arguments_error: argumentsError }) as unknown as AssistantToolCall;
}
const finishReasons = fc.constantFrom<FinishReason | 'refusal'>(
  'tool_calls',
  'tool_calls',
  'stop',
  'length',
  'content_filter',
  'error',
  'refusal',
);
const responses = fc.record({
  calls: fc.array(calls, { maxLength: 5 }),
  finishReason: finishReasons,
  streamed: fc.boolean(),
  breakAfter: fc.option(fc.nat(4), { freq: 8 }),
});

type ResponseRecipe = typeof responses extends fc.Arbitrary<infer T> ? T : never;

/** What the tools saw: every execution, and whether its arguments were ever invalid. */
interface Observed {
  executions: Array<{ name: string; args: unknown }>;
  violations: string[];
}

// One set of tools, one executor and one agent for every case (compiled schemas are
// reused); each case resets what the tools observed and the provider's answer.
let observed: Observed = { executions: [], violations: [] };

function makeTools() {
  const record = (name: string, args: unknown) => {
    observed.executions.push({ name, args });
    const measured = measureJson(args, { maxDepth: limits.maxDepth });
    if (!measured.ok) observed.violations.push(`${name} ran with ${measured.message}`);
  };
  return [
    defineTool({
      name: 'calc.add',
      description: 'Adds two numbers.',
      input_schema: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => {
        record('calc.add', { a, b });
        if (typeof a !== 'number' || typeof b !== 'number') observed.violations.push('add args');
        return { sum: a + b, items: [a, b] };
      },
    }),
    defineTool({
      name: 'calc.echo',
      description: 'Returns its arguments.',
      input_schema: { type: 'object' },
      execute: (args) => {
        record('calc.echo', args);
        return args;
      },
    }),
    defineTool({
      name: 'calc.deep',
      description: 'Returns a deep value.',
      input_schema: { type: 'object' },
      execute: () => nested(100, 1),
    }),
    defineTool({
      name: 'notes.write',
      description: 'Writes a note.',
      risk_level: 'write',
      input_schema: { type: 'object' },
      execute: (args) => {
        record('notes.write', args);
        return 'written';
      },
    }),
  ];
}

function prototypeUntouched(): boolean {
  const probe = {} as Record<string, unknown>;
  return (
    Object.getOwnPropertyNames(Object.prototype).every((key) => originalPrototypeKeys.has(key)) &&
    probe.polluted === undefined &&
    Object.getPrototypeOf(probe) === Object.prototype
  );
}
const originalPrototypeKeys = new Set(Object.getOwnPropertyNames(Object.prototype));

const executor = createExecutor({ tools: makeTools(), limits });
let currentProvider: Provider = objectProvider([]);
const agent = createAgent({
  provider: {
    name: 'objects',
    model: 'objects',
    generate: (request) => currentProvider.generate(request),
    stream: (request) => currentProvider.stream(request),
  },
  tools: executor,
  maxRounds: 2,
});

async function checkResponse(response: ResponseRecipe): Promise<void> {
  const { finishReason, streamed } = response;
  const toolCalls = response.calls.map(callOf);

  // protocol: nothing throws on any of it but the documented PlanValidationError.
  try {
    planFromToolCalls(toolCalls);
  } catch (error) {
    if (!PlanValidationError.isInstance(error)) throw error;
  }
  for (const call of toolCalls) {
    if (measureJson(call.arguments).ok) {
      canonicalJson(call.arguments);
      scanReferences(call.arguments);
      resolveReferences(call.arguments as never, () => ({ a: [1] }));
    }
  }

  // executor: one result per call, in order.
  observed = { executions: [], violations: [] };
  const results = await executor.executeToolCalls(toolCalls);
  expect(results).toHaveLength(toolCalls.length);
  for (const result of results) toolMessageFromResult(result);
  const executorObserved = observed;

  // agent: the same response, streamed (possibly cut) or whole.
  observed = { executions: [], violations: [] };
  const agentObserved = observed;
  const events: AgentEvent[] = [];
  // A stream cut after the call at `breakAfter` was begun (only when that call exists).
  const breakAfter =
    streamed && response.breakAfter !== null && response.breakAfter < toolCalls.length
      ? response.breakAfter
      : undefined;
  currentProvider = objectProvider([
    {
      toolCalls,
      finishReason: finishReason as FinishReason,
      ...(breakAfter === undefined ? {} : { breakAfter }),
    },
  ]);
  const onEvent = (event: AgentEvent) => events.push(event);
  let failed: unknown;
  try {
    const output = streamed
      ? await agent.stream('go', { onEvent }).result
      : await agent.run('go', { onEvent });
    const round = events.find((event) => event.type === 'round-finished');
    if (round?.type === 'round-finished' && finishReason === 'refusal') {
      // A refused turn starts no more calls; read-only ones already started while it
      // streamed are cancelled (or finished first). The conversation check below holds
      // every kept call to exactly one answer.
      expect(round.toolResults.length).toBeLessThanOrEqual(toolCalls.length);
      expect(output.stop_reason).toBe('refusal');
    } else if (toolCalls.length > 0) {
      expect(round?.type === 'round-finished' && round.toolResults).toHaveLength(toolCalls.length);
    }
    // Every call of the conversation has exactly one answer.
    const assistant = output.messages.find((message) => message.role === 'assistant');
    const asked = assistant?.role === 'assistant' ? (assistant.tool_calls ?? []).length : 0;
    expect(output.messages.filter((message) => message.role === 'tool')).toHaveLength(asked);
    expect(measureJson(output.messages, { maxDepth: 200 }).ok).toBe(true);
  } catch (error) {
    failed = error;
  }
  // Only the cut stream may reject (the provider's own error), with every ready call answered.
  if (failed !== undefined) {
    expect(breakAfter).toBeDefined();
    const runFailed = events.find((event) => event.type === 'run-failed');
    expect(runFailed).toBeDefined();
  }

  // Nothing invalid ran; no write ran for a response that did not finish normally.
  expect(executorObserved.violations).toEqual([]);
  expect(agentObserved.violations).toEqual([]);
  const finishedNormally =
    breakAfter === undefined && (finishReason === 'tool_calls' || finishReason === 'stop');
  if (!finishedNormally) {
    expect(agentObserved.executions.filter((run) => run.name === 'notes.write')).toEqual([]);
  }
  expect(prototypeUntouched()).toBe(true);
}

describe('untrusted model responses (seeded property)', () => {
  it(`${numRuns} generated responses: nothing throws, one result per call, nothing invalid runs`, async () => {
    await fc.assert(
      fc.asyncProperty(responses, async (response) => {
        await checkResponse(response);
      }),
      {
        seed,
        numRuns,
        ...(path === undefined ? {} : { path }),
        endOnFailure: true,
        reporter: (details) => {
          if (details.failed) {
            const error = details.errorInstance;
            throw new Error(
              `Fuzz property failed; replay with FUZZ_SEED=${details.seed} FUZZ_PATH=${details.counterexamplePath} FUZZ_RUNS=1.\nCounterexample: ${fc.stringify(details.counterexample)}\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
            );
          }
        },
      },
    );
  }, 300_000);
});
