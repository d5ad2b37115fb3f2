import type { ExecutionPlanInput, ToolCallInput, ToolResult } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventLog } from '../__fixtures__/test-tools';
import { ToolExecutionError } from '../errors';
import type { PlanStartedEvent } from '../events/events';
import { createExecutor } from '../executor';
import { calculatorToolkit } from '../toolkits';
import { defineTool } from '../tools/define-tool';
import { defineToolkit } from '../tools/toolkit';

const executor = () => createExecutor({ tools: [calculatorToolkit()] });
const outcome = (result: ToolResult | undefined) => result?.error_code ?? result?.output;

describe('model mistakes become error results, never throws', () => {
  it('an unknown tool: unknown_tool, naming the tools of the same toolkit', async () => {
    const [result] = await executor().executeToolCalls([
      { id: 'call_1', name: 'calculator.pow', arguments: { a: 2 } },
    ]);
    expect(result).toMatchObject({ success: false, skipped: false, error_code: 'unknown_tool' });
    expect(result?.error).toBe(
      'No tool named "calculator.pow"; the "calculator" tools are: calculator.add, calculator.divide, calculator.multiply, calculator.sqrt, calculator.subtract.',
    );
    const [other] = await executor().executeToolCalls([
      { id: 'call_1', name: 'weather.get', arguments: {} },
    ]);
    expect(other?.error).toMatch(
      /^No tool named "weather\.get"; the available tools are: calculator\.add, /,
    );
  });

  it('arguments failing the schema: every failing path and what was expected', async () => {
    const [result] = await executor().executeToolCalls([
      { id: 'call_1', name: 'calculator.add', arguments: { a: '15', b: 6 } },
    ]);
    expect(result).toMatchObject({ error_code: 'invalid_arguments', skipped: false });
    expect(result?.error).toBe(
      'Invalid arguments for "calculator.add": "a": expected number, got string "15".',
    );
    const [many] = await executor().executeToolCalls([
      { id: 'call_1', name: 'calculator.add', arguments: { a: true, extra: 1 } },
    ]);
    expect(many?.error).toContain('"b": required property is missing');
    expect(many?.error).toContain('"extra": unexpected property (allowed: "a", "b")');
    expect(many?.error).toContain('"a": expected number, got boolean true');
  });

  it('a zod-typed tool reports its failing paths the same way', async () => {
    const greet = defineTool({
      name: 'greet',
      description: 'Greets.',
      input_schema: z.object({ name: z.string(), times: z.number().int().min(1).default(1) }),
      execute: ({ name, times }) => `hello ${name}`.repeat(times),
    });
    const run = createExecutor({ tools: [greet] });
    const [bad, good] = await run.executeToolCalls([
      { id: 'call_1', name: 'greet', arguments: { name: 5, times: 0 } },
      { id: 'call_2', name: 'greet', arguments: { name: 'Ada' } },
    ]);
    expect(bad?.error).toBe(
      'Invalid arguments for "greet": "name": expected string, got number 5; "times": expected a number >= 1, got number 0.',
    );
    expect(good?.output).toBe('hello Ada');
  });

  it('arguments a provider could not parse (arguments_error) are reported as invalid_arguments', async () => {
    const [result] = await executor().executeToolCalls([
      {
        id: 'call_1',
        name: 'calculator.add',
        arguments: {},
        raw_arguments: '{"a":1,',
        arguments_error: 'Unexpected end of JSON input',
      } as ToolCallInput,
    ]);
    expect(result).toMatchObject({ error_code: 'invalid_arguments' });
    expect(result?.error).toBe(
      'Invalid arguments for "calculator.add": Unexpected end of JSON input',
    );
  });

  it('a $ref to a failed call: dependency_failed naming it, down the whole chain; independent calls run', async () => {
    const results = await executor().executeToolCalls([
      { id: 'call_1', name: 'calculator.divide', arguments: { a: 1, b: 0 } },
      { id: 'call_2', name: 'calculator.sqrt', arguments: { x: { $ref: 'call_1' } } },
      { id: 'call_3', name: 'calculator.add', arguments: { a: { $ref: 'call_2' }, b: 1 } },
      { id: 'call_4', name: 'calculator.add', arguments: { a: 2, b: 2 } },
    ]);
    expect(results.map(outcome)).toEqual([
      'tool_error',
      'dependency_failed',
      'dependency_failed',
      4,
    ]);
    expect(results[0]?.error).toBe('Cannot divide 1 by zero: "b" must not be 0.');
    expect(results[1]).toMatchObject({ skipped: true, success: false });
    expect(results[1]?.error).toBe(
      'Call "call_2" was not run: it depends on "call_1", which failed (tool_error: Cannot divide 1 by zero: "b" must not be 0.).',
    );
    expect(results[2]?.error).toBe(
      'Call "call_3" was not run: it depends on "call_2", which was not run either.',
    );
  });

  it('a $path that selects nothing: invalid_arguments with the pointer error', async () => {
    const tools = [
      defineTool({
        name: 'data.user',
        description: 'A user.',
        input_schema: { type: 'object' },
        execute: () => ({ items: [{ id: 7 }] }),
      }),
      defineTool({
        name: 'data.echo',
        description: 'Echo.',
        input_schema: { type: 'object' },
        execute: (args) => args,
      }),
    ];
    const results = await createExecutor({ tools }).executeToolCalls([
      { id: 'call_1', name: 'data.user' },
      {
        id: 'call_2',
        name: 'data.echo',
        arguments: { id: { $ref: 'call_1', $path: '/items/0/id' } },
      },
      {
        id: 'call_3',
        name: 'data.echo',
        arguments: { id: { $ref: 'call_1', $path: '/items/5/id' } },
      },
    ]);
    expect(results[1]?.output).toEqual({ id: 7 });
    expect(results[2]).toMatchObject({ error_code: 'invalid_arguments' });
    expect(results[2]?.error).toContain('index 5 is past the end of the array of 1 at "/items"');
  });

  it('malformed calls get results in place: no id, no name, arguments as a string, a bad $ref', async () => {
    const results = await executor().executeToolCalls([
      null as unknown as ToolCallInput,
      { name: 'calculator.add', arguments: { a: 1, b: 2 } } as unknown as ToolCallInput,
      { id: 'call_3', name: '', arguments: {} },
      { id: 'call_4', name: 'calculator.add', arguments: '{"a":1}' } as unknown as ToolCallInput,
      {
        id: 'call_5',
        name: 'calculator.add',
        arguments: { a: { $ref: 5 }, b: 1 },
      } as unknown as ToolCallInput,
      { id: 'call_6', name: 'calculator.add', arguments: { a: 1, b: 2 } },
    ]);
    expect(results.map((result) => [result.call_id, result.tool_name, outcome(result)])).toEqual([
      ['', '', 'invalid_plan'],
      ['', 'calculator.add', 'invalid_plan'],
      ['call_3', '', 'invalid_plan'],
      ['call_4', 'calculator.add', 'invalid_plan'],
      ['call_5', 'calculator.add', 'invalid_plan'],
      ['call_6', 'calculator.add', 3],
    ]);
    expect(results[0]?.error).toBe('calls[0] must be a tool call object, got null.');
    expect(results[1]?.error).toBe('calls[1] needs a non-empty string "id", got undefined.');
    expect(results[3]?.error).toContain('(send a JSON object, not JSON encoded in a string)');
    expect(results[4]?.error).toContain('"$ref" must be a call id');
  });

  it('duplicate ids, self-references and ids reused from history', async () => {
    const history = new Map([
      [
        'call_0',
        {
          call_id: 'call_0',
          tool_name: 'calculator.add',
          output: 1,
          success: true,
          cached: false,
          skipped: false,
          created_at: new Date().toISOString(),
        },
      ],
    ]);
    const results = await executor().executeToolCalls(
      [
        { id: 'call_1', name: 'calculator.add', arguments: { a: 1, b: 1 } },
        { id: 'call_1', name: 'calculator.add', arguments: { a: 2, b: 2 } },
        { id: 'call_2', name: 'calculator.add', arguments: { a: 1, b: { $ref: 'call_2' } } },
        { id: 'call_0', name: 'calculator.add', arguments: { a: 1, b: 1 } },
        {
          id: 'call_3',
          name: 'calculator.add',
          arguments: { a: { $ref: 'call_0' }, b: { $ref: 'call_1' } },
        },
      ],
      { history },
    );
    expect(results.map(outcome)).toEqual([2, 'invalid_plan', 'invalid_plan', 'invalid_plan', 3]);
    expect(results[1]?.error).toBe(
      'Call id "call_1" is used twice (calls[0] and calls[1]); give every call its own id.',
    );
    expect(results[2]?.error).toBe(
      'Call "call_2" depends on its own output (call_2 -> call_2); a call cannot reference itself.',
    );
    expect(results[3]?.error).toBe(
      'Call id "call_0" (calls[3]) was already used by a call in an earlier round; give this call a new id.',
    );
  });

  it('a throwing tool: its message, and its code when it is a ToolErrorCode', async () => {
    const thrower = (name: string, error: unknown) =>
      defineTool({
        name,
        description: 'Throws.',
        input_schema: { type: 'object' },
        execute: () => {
          throw error;
        },
      });
    const asyncThrower = defineTool({
      name: 'throw.async',
      description: 'Rejects.',
      input_schema: { type: 'object' },
      execute: async () => Promise.reject(new Error('async failure')),
    });
    const run = createExecutor({
      tools: [
        thrower('throw.plain', new Error('plain failure')),
        thrower('throw.string', 'just a string'),
        thrower('throw.coded', new ToolExecutionError({ message: 'slow down', code: 'timeout' })),
        thrower(
          'throw.custom',
          new ToolExecutionError({ message: 'no such city', code: 'city_unknown' }),
        ),
        thrower('throw.object', { reason: 'weird' }),
        asyncThrower,
      ],
    });
    const names = [
      'throw.plain',
      'throw.string',
      'throw.coded',
      'throw.custom',
      'throw.object',
      'throw.async',
    ];
    const results = await run.executeToolCalls(
      names.map((name, index) => ({ id: `c${index}`, name })),
    );
    expect(results.map((result) => [result.error_code, result.error])).toEqual([
      ['tool_error', 'plain failure'],
      ['tool_error', 'just a string'],
      ['timeout', 'slow down'],
      ['tool_error', 'no such city'],
      ['tool_error', 'the tool threw {"reason":"weird"}'],
      ['tool_error', 'async failure'],
    ]);
  });

  it('a tool with a broken input schema fails its calls with tool_error, others run', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Bad schema.',
      input_schema: { type: 'object', properties: { a: { type: 'no-such-type' } } },
      execute: () => 1,
    });
    const results = await createExecutor({
      tools: [broken, ...(calculatorToolkit().load() as [])],
    }).executeToolCalls([
      { id: 'call_1', name: 'broken', arguments: { a: 1 } },
      { id: 'call_2', name: 'calculator.add', arguments: { a: 1, b: 1 } },
    ]);
    expect(results[0]).toMatchObject({ error_code: 'tool_error' });
    expect(results[0]?.error).toMatch(
      /^The tool "broken" has an invalid input schema, so it cannot be called/,
    );
    expect(results[1]?.output).toBe(2);
  });

  it('a toolkit that fails to load fails its calls with tool_error and loads again on the next run', async () => {
    let attempts = 0;
    const flaky = defineToolkit({
      name: 'flaky',
      load: async () => {
        attempts++;
        if (attempts === 1) throw new Error('network down');
        return [
          defineTool({
            name: 'flaky.ok',
            description: 'ok',
            input_schema: { type: 'object' },
            execute: () => 'ok',
          }),
        ];
      },
    });
    const run = createExecutor({ tools: [flaky] });
    const [first] = await run.executeToolCalls([{ id: 'call_1', name: 'flaky.ok' }]);
    expect(first?.error).toBe('The toolkit "flaky" failed to load: network down');
    const [second] = await run.executeToolCalls([{ id: 'call_1', name: 'flaky.ok' }]);
    expect(second?.output).toBe('ok');
  });
});

describe('invalid plans: each issue on the calls it concerns, the rest still run', () => {
  const call = (
    id: string,
    args: Record<string, unknown> = { a: 1, b: 1 },
    name = 'calculator.add',
  ) => ({
    id,
    name,
    arguments: args,
  });

  it('ref_not_earlier fails the offending call only; its dependents are skipped', async () => {
    const plan: ExecutionPlanInput = {
      batches: [
        {
          mode: 'parallel',
          calls: [call('call_1', { a: 1, b: { $ref: 'call_2' } }), call('call_2')],
        },
        {
          mode: 'parallel',
          calls: [call('call_3', { a: { $ref: 'call_1' }, b: 1 }), call('call_4')],
        },
      ],
    };
    const results = await executor().execute(plan);
    expect(results.map(outcome)).toEqual(['invalid_plan', 2, 'dependency_failed', 2]);
    expect(results[0]?.error).toContain(
      'needs the output of "call_2", which runs at the same time',
    );
  });

  it('missing dependencies, cycles, duplicates, bad shapes and unknown batch modes', async () => {
    const log = eventLog();
    const plan = {
      batches: [
        {
          mode: 'parallel',
          calls: [
            call('call_1', { a: 1, b: { $ref: 'nowhere' } }),
            call('call_2', { a: { $ref: 'call_3' }, b: 1 }),
            call('call_3', { a: { $ref: 'call_2' }, b: 1 }),
            call('call_4'),
            call('call_4', { a: 5, b: 5 }),
            { id: 'call_5', name: 7 },
          ],
        },
        { mode: 'whenever', calls: [call('call_6'), call('call_7')] },
        { mode: 'parallel', calls: 'not a list' },
        { mode: 'sequential', calls: [call('call_8', { a: 1, b: 2 })] },
      ],
    } as unknown as ExecutionPlanInput;
    const results = await executor().execute(plan, { onEvent: log.onEvent });
    expect(results.map((result) => [result.call_id, outcome(result)])).toEqual([
      ['call_1', 'invalid_plan'],
      ['call_2', 'invalid_plan'],
      ['call_3', 'invalid_plan'],
      ['call_4', 2],
      ['call_4', 'invalid_plan'],
      ['call_5', 'invalid_plan'],
      ['call_6', 'invalid_plan'],
      ['call_7', 'invalid_plan'],
      ['call_8', 3],
    ]);
    expect(results[0]?.error).toBe(
      'Call "call_1" references {"$ref": "nowhere"}, but no call with that id exists in this response or an earlier round.',
    );
    expect(results[1]?.error).toContain('cycle: call_2 -> call_3 -> call_2');
    expect(results[2]?.error).toContain('cycle: call_2 -> call_3 -> call_2');
    expect(results[4]?.error).toContain('is used twice');
    expect(results[5]?.error).toContain('needs a non-empty string "name"');
    expect(results[6]?.error).toBe(
      'batches[1] has mode string "whenever"; a batch\'s mode is "parallel" or "sequential".',
    );
    const started = log.events[0] as PlanStartedEvent;
    expect(started.callCount).toBe(9);
    expect(started.issues.map((issue) => issue.code)).toContain('invalid_plan_shape');
  });

  it('a plan that is not a plan resolves with no results and reports why in plan-started', async () => {
    const log = eventLog();
    const results = await executor().execute('not a plan' as unknown as ExecutionPlanInput, {
      onEvent: log.onEvent,
    });
    expect(results).toEqual([]);
    const started = log.events[0] as PlanStartedEvent;
    expect(started.issues[0]?.message).toBe(
      'A plan must be an object with a "batches" list, got string "not a plan".',
    );
  });

  it('references to history outputs resolve; a reference to a failed history call is a dependency failure', async () => {
    const past = (id: string, output: number | null, success = true): ToolResult => ({
      call_id: id,
      tool_name: 'calculator.add',
      output,
      success,
      cached: false,
      skipped: false,
      created_at: new Date().toISOString(),
      ...(success ? {} : { error: 'boom', error_code: 'tool_error' as const }),
    });
    const results = await executor().execute(
      {
        batches: [
          {
            calls: [
              call('call_3', { a: { $ref: 'call_1' }, b: 1 }),
              call('call_4', { a: { $ref: 'call_2' }, b: 1 }),
            ],
          },
        ],
      },
      { history: { call_1: past('call_1', 41), call_2: past('call_2', null, false) } },
    );
    expect(results.map(outcome)).toEqual([42, 'dependency_failed']);
    expect(results[1]?.error).toBe(
      'Call "call_4" was not run: it depends on "call_2", which failed (tool_error: boom).',
    );
  });
});
