import { describe, expect, it } from 'vitest';
import { createExecutor } from '../executor';
import { defineTool, type ToolContext } from '../tools/define-tool';
import { unwatchAbort, watchAbort } from './tool-context';

/** `test.watch`: watches its call's abort and settles only when told or aborted. */
function watchingTool(timeoutMs?: number) {
  const seen: { context?: ToolContext; reasons: unknown[]; watched?: boolean } = { reasons: [] };
  let started!: () => void;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  const tool = defineTool({
    name: 'test.watch',
    description: 'Watches its abort.',
    input_schema: { type: 'object' },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    execute: (_args, context) =>
      new Promise((resolve) => {
        seen.context = context;
        seen.watched = watchAbort(context, {
          handleEvent: () => {
            seen.reasons.push(context.signal.reason);
            resolve('aborted');
          },
        });
        started();
      }),
  });
  return { tool, seen, running };
}

describe('watchAbort', () => {
  it('tells the watcher when the run is cancelled, with the reason context.signal gives', async () => {
    const { tool, seen, running } = watchingTool();
    const controller = new AbortController();
    const results = createExecutor({ tools: [tool] }).executeToolCalls(
      [{ id: 'a', name: 'test.watch' }],
      { signal: controller.signal },
    );
    await running;
    expect(seen.watched).toBe(true);
    controller.abort(new Error('stop'));
    const [result] = await results;
    expect(result?.error_code).toBe('cancelled');
    expect(seen.reasons).toHaveLength(1);
    expect((seen.reasons[0] as Error).message).toBe('stop');
  });

  it('watches the signal of a call with a time limit (its timeout tells the watcher)', async () => {
    const { tool, seen } = watchingTool(20);
    const [result] = await createExecutor({ tools: [tool] }).executeToolCalls([
      { id: 'a', name: 'test.watch' },
    ]);
    expect(result?.error_code).toBe('timeout');
    expect(seen.reasons).toHaveLength(1);
    expect((seen.reasons[0] as DOMException).name).toBe('TimeoutError');
  });

  it('tells nobody once unwatched, and says false for a call aborted already', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const tool = defineTool({
      name: 'test.unwatch',
      description: 'Unwatches at once.',
      input_schema: { type: 'object' },
      execute: (_args, context) => {
        const watcher = { handleEvent: () => calls.push('told') };
        expect(watchAbort(context, watcher)).toBe(true);
        unwatchAbort(context, watcher);
        controller.abort();
        expect(watchAbort(context, watcher)).toBe(false);
        return new Promise(() => {});
      },
    });
    const [result] = await createExecutor({ tools: [tool] }).executeToolCalls(
      [{ id: 'a', name: 'test.unwatch' }],
      { signal: controller.signal },
    );
    expect(result?.error_code).toBe('cancelled');
    expect(calls).toEqual([]);
  });

  it('watches the signal of any other context', () => {
    const controller = new AbortController();
    const context = { signal: controller.signal } as ToolContext;
    let told = 0;
    const watcher = { handleEvent: () => told++ };
    expect(watchAbort(context, watcher)).toBe(true);
    controller.abort();
    expect(told).toBe(1);
    expect(watchAbort(context, watcher)).toBe(false);
  });
});
