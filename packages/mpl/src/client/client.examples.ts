// Type-checked examples shown in the TSDoc of `client.ts` and `mpl-session.ts`
// (scripts/docs/examples.mjs).
import type { TaskPlanPayload } from '../registry/payloads';
import { MplClient } from './client';

export async function mplClientExample(plan: TaskPlanPayload) {
  //#region MplClient
  const client = new MplClient('http://127.0.0.1:9443');
  const result = await client.call('agent.plan', {
    payload: plan,
    headers: { 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
  });
  console.log(result.valid, result.semHash);
  //#endregion MplClient
}

export async function mplSessionExample(client: MplClient, signal: AbortSignal) {
  //#region MplSession
  const session = await client.createSession();
  session.onMessage('org.agent.TaskPlan.v1', async (message) => {
    console.log(`Received plan: ${message.payload.goal}`);
    return { status: 'accepted', planId: message.payload.planId };
  });
  await session.run({ signal });
  //#endregion MplSession
}
