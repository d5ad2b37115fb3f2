// Type-checked examples shown in the TSDoc of `side-effect-hold.ts` (scripts/docs/examples.mjs).
import { type Executor, holdSideEffects } from '@mtpx/executor';

export function holdExample(executor: Executor, finishReason: string) {
  //#region hold
  const execution = executor.start({ hold: holdSideEffects });
  // Read-only calls start as soon as they are added; write calls wait (`call-held`).
  execution.add({ id: 'call_1', name: 'notes.append', arguments: { line: 'paid' } });
  if (finishReason === 'tool_calls' || finishReason === 'stop') execution.release();
  else execution.dropHeld(`Not run: the response did not finish (${finishReason}).`);
  execution.end();
  //#endregion hold
  return execution.results;
}
