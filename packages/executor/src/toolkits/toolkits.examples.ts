// Type-checked examples shown in the TSDoc of the toolkits (scripts/docs/examples.mjs).
import { createExecutor } from '@mtpx/executor';
import { calculatorToolkit, fileToolkit } from '@mtpx/executor/toolkits';

export function calculatorToolkitExample() {
  //#region calculatorToolkit
  const executor = createExecutor({ tools: [calculatorToolkit()] });
  //#endregion calculatorToolkit
  return executor;
}

export function fileToolkitExample() {
  //#region fileToolkit
  const executor = createExecutor({ tools: [fileToolkit({ root: './workspace' })] });
  //#endregion fileToolkit
  return executor;
}
