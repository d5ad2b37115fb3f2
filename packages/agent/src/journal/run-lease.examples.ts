// Type-checked examples shown in the TSDoc of `run-lease.ts` (scripts/docs/examples.mjs).
import type { AnyTool } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { createAgent, InMemoryRunJournal, RunLeaseError } from '../index';

export async function runLeaseErrorExample(provider: Provider, tools: AnyTool[]) {
  const journal = new InMemoryRunJournal();
  //#region RunLeaseError
  const agent = createAgent({
    provider,
    tools,
    journal,
    lease: { ttlMs: 30_000, holder: 'worker-7' },
  });
  try {
    await agent.resume('run_42', { waitForLeaseMs: 5_000 });
  } catch (error) {
    if (RunLeaseError.isLeaseError(error) && error.code === 'run_lease_held') {
      console.log(`run_42 belongs to ${error.holder} until ${error.expiresAt}`);
    }
  }
  //#endregion RunLeaseError
  return agent;
}
