// The MPL tutorial's planner → reasoning → invocation → result flow, in process: each
// message is validated (the invocation's args too), judged by a QoM profile, hashed and
// recorded in a hash-chained provenance log, which is then verified.
// Run: pnpm --filter @mtpx/mpl run example:tutorial
import { randomUUID } from 'node:crypto';
import {
  InMemoryProvenanceStore,
  MplEngine,
  type ReasoningPayload,
  type TaskPlanPayload,
  type ToolInvocationPayload,
  type ToolResultPayload,
  verifyChain,
} from '@mtpx/mpl';

const engine = await MplEngine.create({ defaultProfile: 'qom-strict-argcheck' });
const store = new InMemoryProvenanceStore();

/** Judges a message; records it when accepted, shows why when not. */
async function send(stype: string, method: string, payload: object) {
  const verdict = engine.inspect(stype, payload);
  if (!verdict.accepted) {
    const error = engine.rejection(verdict);
    console.log(`${method}: rejected [${error.code}]`);
    for (const detail of error.details) console.log(`  ${detail.path}: ${detail.message}`);
    return verdict;
  }
  const entry = await store.append({
    ...(verdict.planId ? { plan_id: verdict.planId } : {}),
    invocation_id: verdict.invocationId ?? null,
    stype: verdict.stype,
    method,
    sem_hash: verdict.semHash,
    payload: payload as never,
    qom_profile: verdict.qom.profile,
    qom_passed: verdict.qom.passed,
  });
  console.log(`${method}: valid, ${verdict.semHash.slice(0, 23)}…, seq ${entry.seq}`);
  return verdict;
}

const planId = randomUUID();
const plan: TaskPlanPayload = {
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
    { stepId: 3, action: 'Generate comparison report', tool: 'report_generate', dependsOn: [1, 2] },
  ],
  constraints: { maxRetries: 2, timeoutSeconds: 120, failureStrategy: 'retry' },
};
await send('org.agent.TaskPlan.v1', 'agent.plan', plan);

const reasoning: ReasoningPayload = {
  reasoningId: randomUUID(),
  planId,
  thought: 'Step 1 has no dependencies; step 3 depends on step 2, so the steps form a chain.',
  conclusion: 'Execute steps sequentially: 1 -> 2 -> 3. Use retry strategy on failure.',
  confidence: 0.95,
};
await send('ai.agent.Reasoning.v1', 'agent.reason', reasoning);

const invocationId = randomUUID();
const invocation: ToolInvocationPayload = {
  invocationId,
  planId,
  stepId: 1,
  tool: 'web_search',
  args: {
    queryId: randomUUID(),
    query: 'competitor SaaS pricing 2025',
    context: { maxDocuments: 10 },
  },
  args_stype: 'eval.rag.RAGQuery.v1',
};
// Double validation: the args are checked against eval.rag.RAGQuery.v1 too.
await send('org.agent.ToolInvocation.v1', 'agent.invoke_tool', {
  ...invocation,
  args: { context: { maxDocuments: 0 } },
});
await send('org.agent.ToolInvocation.v1', 'agent.invoke_tool', invocation);

const result: ToolResultPayload = {
  invocationId,
  status: 'success',
  result: { answer: 'Competitor pricing ranges from $29 to $199 a month.' },
  durationMs: 1200,
};
// No planId: the result joins the plan of the invocation it answers.
await send('org.agent.ToolResult.v1', 'agent.tool_result', result);

const chain = await store.chain(planId, { payloads: true });
console.log(`Chain length: ${chain.length}`);
for (const entry of chain)
  console.log(
    `  [${entry.stype}] ${entry.sem_hash.slice(0, 23)}… (parent: ${entry.parent_hash?.slice(0, 23) ?? 'root'})`,
  );
console.log('verified:', verifyChain(chain).valid);
