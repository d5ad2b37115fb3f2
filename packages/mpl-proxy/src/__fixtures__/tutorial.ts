/** The payloads of the MPL tutorial's multi-agent flow, with fixed ids. */
export const planId = '550e8400-e29b-41d4-a716-446655440010';
export const invocationId = '550e8400-e29b-41d4-a716-446655440020';
export const queryId = '550e8400-e29b-41d4-a716-446655440030';

export const taskPlan = {
  planId,
  goal: 'Research competitor pricing and create a summary report',
  steps: [
    { stepId: 1, action: 'Search for competitor pricing data', tool: 'web_search', args_stype: 'eval.rag.RAGQuery.v1' },
    { stepId: 2, action: 'Extract pricing information', tool: 'data_extract', dependsOn: [1] },
    { stepId: 3, action: 'Generate comparison report', tool: 'report_generate', dependsOn: [1, 2], args_stype: 'org.report.Summary.v1' },
  ],
  constraints: { maxRetries: 2, timeoutSeconds: 120, failureStrategy: 'retry' },
};

export const reasoning = {
  reasoningId: '550e8400-e29b-41d4-a716-446655440011',
  planId,
  thought:
    'The plan has 3 steps with clear dependencies. Step 1 (web_search) has no dependencies and can start immediately. Steps 2 and 3 depend on step 1. Step 3 also depends on step 2, creating a linear chain.',
  conclusion: 'Execute steps sequentially: 1 -> 2 -> 3. Use retry strategy on failure.',
  confidence: 0.95,
  alternatives: [{ option: 'Parallelize steps 2 and 3', reason_rejected: "Step 3 depends on step 2's output" }],
};

export const toolInvocation = {
  invocationId,
  planId,
  stepId: 1,
  tool: 'web_search',
  args: {
    queryId,
    query: 'competitor SaaS pricing 2025',
    context: {
      maxDocuments: 10,
      minRelevanceScore: 0.8,
      timeRange: { start: '2024-06-01T00:00:00Z', end: '2025-12-31T23:59:59Z' },
    },
  },
  args_stype: 'eval.rag.RAGQuery.v1',
};

export const toolResult = {
  invocationId,
  status: 'success',
  result: {
    queryId,
    answer: 'Based on analysis, competitor pricing ranges from $29-$199/month.',
    sources: [
      { documentId: 'pricing-page-001', chunk: 'Acme Corp offers plans starting at $49/month...', relevanceScore: 0.92 },
      { documentId: 'pricing-page-002', chunk: 'Beta Inc pricing: Starter $29/mo, Pro $99/mo, Enterprise $199/mo', relevanceScore: 0.89 },
    ],
    metadata: { documentsRetrieved: 2, generationModel: 'gpt-4', latencyMs: 850 },
  },
  durationMs: 1200,
};
