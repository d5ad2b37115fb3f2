// Type-checked examples shown in the TSDoc of `qom.ts` and `assertions.ts`
// (scripts/docs/examples.mjs).
import { compileAssertionSet } from './assertions';
import { evaluateQom } from './qom';
import { BUILTIN_QOM_PROFILES } from './qom-profiles';

export function compileAssertionSetExample() {
  //#region compileAssertionSet
  const set = compileAssertionSet({
    assertions: [
      { id: 'positive', expression: 'payload.amount > 0', message: 'Amount must be positive' },
    ],
  });
  set.evaluate({ amount: 5 }).instructionCompliance; // 1
  //#endregion compileAssertionSet
}

export function evaluateQomExample() {
  //#region evaluateQom
  const profile = BUILTIN_QOM_PROFILES['qom-strict-argcheck'];
  if (profile)
    evaluateQom(profile, { schema_fidelity: 1, instruction_compliance: 0.5 }).failures[0]?.metric;
  // 'instruction_compliance'
  //#endregion evaluateQom
}
