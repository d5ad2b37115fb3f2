// Type-checked examples shown in the TSDoc of `engine.ts`, `errors.ts` and `policy.ts`
// (scripts/docs/examples.mjs).
import type { MplClient } from './client/client';
import { MplEngine } from './engine';
import { SchemaFidelityError } from './errors';
import { MplPolicy } from './policy';
import type { TaskPlanPayload } from './registry/payloads';

export async function mplEngineExample(plan: TaskPlanPayload) {
  //#region MplEngine
  const engine = await MplEngine.create();
  const verdict = engine.inspect('org.agent.TaskPlan.v1', plan, { profile: 'qom-strict-argcheck' });
  console.log(verdict.accepted, verdict.semHash, verdict.qom.metrics);
  //#endregion MplEngine
}

export async function schemaFidelityErrorExample(client: MplClient, payload: TaskPlanPayload) {
  //#region SchemaFidelityError
  try {
    await client.call('agent.plan', {
      payload,
      headers: { 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
    });
  } catch (error) {
    if (SchemaFidelityError.isInstance(error)) console.log(error.details);
  }
  //#endregion SchemaFidelityError
}

export function mplPolicyExample() {
  //#region MplPolicy
  const policy = MplPolicy.from({
    deny: ['org.finance.*'],
    rules: [{ stypes: ['org.agent.*'], required_profile: 'qom-strict-argcheck' }],
  });
  policy.check('org.finance.Trade.v1', 120).allowed; // false
  //#endregion MplPolicy
}
