// Type-checked examples shown in the TSDoc of `executor.ts` (scripts/docs/examples.mjs).
import { createExecutor } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';

export async function createExecutorExample() {
  //#region createExecutor
  const executor = createExecutor({ tools: [calculatorToolkit()] });
  const results = await executor.executeToolCalls([
    { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
  ]);
  results.map((result) => result.output); // [12, 48]
  //#endregion createExecutor
  return results;
}

export async function startExample() {
  //#region start
  const executor = createExecutor({ tools: [calculatorToolkit()] });
  const execution = executor.start();
  // Each call is added as the model finishes writing it; call_2 waits for call_1.
  execution.add({
    id: 'call_2',
    name: 'calculator.multiply',
    arguments: { a: 4, b: { $ref: 'call_1' } },
  });
  execution.add({ id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } });
  execution.end();
  const results = await execution.results; // [48, 12] as results, in add order
  //#endregion start
  return results;
}
