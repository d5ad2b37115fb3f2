// The MPL tutorial end to end: a proxy on a free port with durable provenance, an
// executor session with typed handlers, and the planner's four typed messages.
// Run: pnpm --filter @mtpx/mpl-proxy run example:tutorial
import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MplClient, ToolArgCoercionError } from '@mtpx/mpl';
import { startProxy } from '@mtpx/mpl-proxy';

const proxy = await startProxy({ port: 0, dataDir: await mkdtemp(join(tmpdir(), 'mpl-example-')) });
const client = new MplClient(proxy.url);
console.log(`proxy on ${proxy.url}`);

// The executor: a session whose handlers receive typed payloads.
const session = await client.createSession();
session.onMessage('org.agent.TaskPlan.v1', async (message) => {
  console.log(`executor received plan: ${message.payload.goal}`);
  return { status: 'accepted', planId: message.payload.planId };
});
session.onMessage('org.agent.ToolResult.v1', async (message) => {
  console.log(`executor received tool result: ${message.payload.status}`);
  return { action: message.payload.status === 'error' ? 'retry' : 'continue' };
});
const stop = new AbortController();
let markReady = () => {};
const ready = new Promise<void>((resolve) => {
  markReady = resolve;
});
let handled = 0;
const executor = session.run({
  signal: stop.signal,
  onReady: () => markReady(),
  onHandled: () => {
    handled += 1;
    if (handled === 2) stop.abort();
  },
});
await ready;

// The planner.
const planId = randomUUID();
const headers = (stype: string) => ({
  'X-MPL-SType': stype,
  'X-MPL-Profile': 'qom-strict-argcheck',
});
const plan = await client.call('agent.plan', {
  payload: {
    planId,
    goal: 'Research competitor pricing and create a summary report',
    steps: [
      {
        stepId: 1,
        action: 'Search for competitor pricing data',
        tool: 'web_search',
        args_stype: 'eval.rag.RAGQuery.v1',
      },
      { stepId: 2, action: 'Extract pricing information', tool: 'data_extract', dependsOn: [1] },
    ],
  },
  headers: headers('org.agent.TaskPlan.v1'),
});
console.log(`Plan validated: ${plan.valid}, sem hash: ${plan.semHash}`);

await client.call('agent.reason', {
  payload: {
    reasoningId: randomUUID(),
    planId,
    thought: 'Step 2 needs step 1.',
    conclusion: 'Run 1 then 2.',
  },
  headers: headers('ai.agent.Reasoning.v1'),
});

const invocationId = randomUUID();
const invocation = {
  invocationId,
  planId,
  stepId: 1,
  tool: 'web_search',
  args: { queryId: randomUUID(), query: 'competitor SaaS pricing 2025' },
  args_stype: 'eval.rag.RAGQuery.v1',
};
try {
  await client.call('agent.invoke_tool', {
    payload: { ...invocation, args: { query: '' } },
    headers: headers('org.agent.ToolInvocation.v1'),
  });
} catch (error) {
  // Double validation: the args failed eval.rag.RAGQuery.v1, so strict mode answered 422.
  if (!ToolArgCoercionError.isInstance(error)) throw error;
  console.log(
    `bad args refused [${error.code}]: ${error.details.map((detail) => detail.path).join(', ')}`,
  );
}
await client.call('agent.invoke_tool', {
  payload: invocation,
  headers: headers('org.agent.ToolInvocation.v1'),
});

const result = await client.call('agent.tool_result', {
  payload: {
    invocationId,
    status: 'success',
    result: { answer: '$29 to $199 a month' },
    durationMs: 1200,
  },
  headers: headers('org.agent.ToolResult.v1'),
});
console.log(`Result validated: ${result.valid}, QoM passed: ${result.qomPassed}`);

await executor;
const { chain } = await client.provenance({ planId });
console.log(`Chain length: ${chain.length}`);
for (const entry of chain)
  console.log(
    `  [${entry.stype}] ${entry.sem_hash.slice(0, 23)}… (parent: ${entry.parent_hash?.slice(0, 23) ?? 'root'})`,
  );
console.log('verified:', (await client.verifyProvenance({ planId })).valid);
await proxy.close();
