// Type-checked examples shown in the TSDoc of `errors.ts` (scripts/docs/examples.mjs).
import { defineTool, ToolExecutionError } from '@mtpx/executor';

export function toolExecutionErrorExample() {
  return defineTool({
    name: 'weather.today',
    description: 'Today’s weather.',
    input_schema: { type: 'object' },
    execute: () => {
      //#region ToolExecutionError
      throw new ToolExecutionError({
        message: 'The weather service is rate limited.',
        retryable: true,
      });
      //#endregion ToolExecutionError
    },
  });
}
