/**
 * Run by cancellation.test.ts in a child Node process: starts a plan whose calls hold
 * every kind of executor timer (a 10-minute time limit, a 10-minute retry backoff) and a
 * tool that ignores its signal, cancels it, prints the results as JSON — and must then
 * exit by itself: nothing of the executor may keep the event loop alive.
 */
import { createExecutor, defineTool, ToolExecutionError } from '../index';

const tenMinutes = 600_000;
const schema = { type: 'object' };
const tools = [
  defineTool({
    name: 'slow.wait',
    description: 'Waits for its signal.',
    input_schema: schema,
    timeoutMs: tenMinutes,
    execute: (_args, { signal }) =>
      new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
  }),
  defineTool({
    name: 'slow.deaf',
    description: 'Ignores its signal.',
    input_schema: schema,
    execute: () => new Promise(() => {}),
  }),
  defineTool({
    name: 'flaky.retry',
    description: 'Always asks to be retried later.',
    input_schema: schema,
    retries: 5,
    execute: () => {
      throw new ToolExecutionError({ message: 'busy', retryable: true, retryAfterMs: tenMinutes });
    },
  }),
  defineTool({ name: 'fast.echo', description: 'Echo.', input_schema: schema, execute: (args) => args }),
];

const controller = new AbortController();
let started = 0;
let retried = false;
const executor = createExecutor({ tools, timeoutMs: tenMinutes });
const results = await executor.execute(
  {
    batches: [
      {
        mode: 'parallel',
        calls: [
          { id: 'wait', name: 'slow.wait' },
          { id: 'deaf', name: 'slow.deaf' },
          { id: 'retry', name: 'flaky.retry' },
        ],
      },
      { mode: 'parallel', calls: [{ id: 'after_wait', name: 'fast.echo', arguments: { x: { $ref: 'wait' } } }] },
    ],
  },
  {
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === 'call-started') started++;
      if (event.type === 'call-retried') retried = true;
      if (started === 3 && retried && !controller.signal.aborted) controller.abort(new Error('user pressed stop'));
    },
  },
);
process.stdout.write(
  JSON.stringify(results.map((result) => [result.call_id, result.error_code, result.skipped, result.error])),
);
