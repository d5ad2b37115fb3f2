// Type-checked examples shown in the TSDoc of `idempotency-key.ts` (scripts/docs/examples.mjs).
import { idempotencyKeyOf } from '@mtpx/executor';

export function idempotencyKeyOfExample() {
  //#region idempotencyKeyOf
  const key = idempotencyKeyOf('run_1', 'call_1', { to: 'ada@example.com' });
  key.startsWith('idem_'); // true
  //#endregion idempotencyKeyOf
  return key;
}
