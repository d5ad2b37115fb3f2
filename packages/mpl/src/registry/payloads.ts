import { z } from 'zod';

// The same UUID pattern as ajv-formats, so zod and the JSON Schemas agree.
const uuid = z.string().regex(/^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i, {
  message: 'must be a UUID',
});
const loose = z.record(z.string(), z.unknown());

/** zod schema of `org.agent.TaskPlan.v1` (the JSON Schema in `stypes/` is authoritative). */
export const TaskPlanPayloadSchema = z.strictObject({
  planId: uuid,
  goal: z.string().min(1),
  steps: z
    .array(
      z.strictObject({
        stepId: z.int().min(1),
        action: z.string(),
        tool: z.string(),
        dependsOn: z.array(z.int()).optional(),
        args_stype: z.string().optional(),
      }),
    )
    .min(1),
  constraints: z
    .strictObject({
      maxRetries: z.int().min(0).max(10).optional(),
      timeoutSeconds: z.int().min(1).optional(),
      failureStrategy: z.enum(['abort', 'skip', 'retry']).optional(),
    })
    .optional(),
});
/** A task plan: a goal decomposed into ordered, dependent steps. */
export type TaskPlanPayload = z.infer<typeof TaskPlanPayloadSchema>;

/** zod schema of `org.agent.ToolInvocation.v1`. */
export const ToolInvocationPayloadSchema = z.strictObject({
  invocationId: uuid,
  planId: uuid,
  stepId: z.int().min(1),
  tool: z.string(),
  args: loose,
  args_stype: z.string().optional(),
});
/** A typed tool invocation; `args` conform to `args_stype` when it is given. */
export type ToolInvocationPayload = z.infer<typeof ToolInvocationPayloadSchema>;

/** zod schema of `org.agent.ToolResult.v1`. */
export const ToolResultPayloadSchema = z.strictObject({
  invocationId: uuid,
  status: z.enum(['success', 'error', 'timeout']),
  result: loose,
  error: z.looseObject({ code: z.string().optional(), message: z.string().optional() }).optional(),
  durationMs: z.int().min(0).optional(),
});
/** The result of a tool invocation, with its status. */
export type ToolResultPayload = z.infer<typeof ToolResultPayloadSchema>;

/** zod schema of `ai.agent.Reasoning.v1`. */
export const ReasoningPayloadSchema = z.strictObject({
  reasoningId: uuid,
  planId: uuid,
  thought: z.string(),
  conclusion: z.string(),
  confidence: z.number().min(0).max(1).optional(),
  alternatives: z
    .array(z.looseObject({ option: z.string().optional(), reason_rejected: z.string().optional() }))
    .optional(),
});
/** An agent's reasoning trace: what it thought and what it concluded. */
export type ReasoningPayload = z.infer<typeof ReasoningPayloadSchema>;

const dateTime = z.iso.datetime({ offset: true });

/** zod schema of `eval.rag.RAGQuery.v1`. */
export const RAGQueryPayloadSchema = z.looseObject({
  queryId: z.string().optional(),
  query: z.string().min(1),
  context: z
    .looseObject({
      maxDocuments: z.int().min(1).max(100).optional(),
      minRelevanceScore: z.number().min(0).max(1).optional(),
      sources: z.array(z.string()).optional(),
      timeRange: z.looseObject({ start: dateTime.optional(), end: dateTime.optional() }).optional(),
    })
    .optional(),
  filters: loose.optional(),
  responseFormat: z.enum(['text', 'json', 'markdown']).optional(),
});
/** A retrieval-augmented generation query. */
export type RAGQueryPayload = z.infer<typeof RAGQueryPayloadSchema>;

/** zod schema of `eval.rag.RAGResponse.v1`. */
export const RAGResponsePayloadSchema = z.looseObject({
  queryId: z.string().optional(),
  answer: z.string(),
  sources: z.array(
    z.looseObject({
      documentId: z.string(),
      title: z.string().optional(),
      chunk: z.string().optional(),
      snippet: z.string().optional(),
      relevanceScore: z.number().min(0).max(1),
      url: z.url().optional(),
    }),
  ),
  confidence: z.number().min(0).max(1).optional(),
  groundedness: z.number().min(0).max(1).optional(),
  metadata: z
    .looseObject({
      documentsRetrieved: z.int().min(0).optional(),
      generationModel: z.string().optional(),
      latencyMs: z.int().min(0).optional(),
      tokensUsed: z.int().min(0).optional(),
    })
    .optional(),
});
/** The answer to a RAG query with its sources. */
export type RAGResponsePayload = z.infer<typeof RAGResponsePayloadSchema>;

/** The payload type of each built-in SType, by id. */
export interface BuiltinPayloads {
  'org.agent.TaskPlan.v1': TaskPlanPayload;
  'org.agent.ToolInvocation.v1': ToolInvocationPayload;
  'org.agent.ToolResult.v1': ToolResultPayload;
  'ai.agent.Reasoning.v1': ReasoningPayload;
  'eval.rag.RAGQuery.v1': RAGQueryPayload;
  'eval.rag.RAGResponse.v1': RAGResponsePayload;
}

/** The id of a built-in SType. */
export type BuiltinSTypeId = keyof BuiltinPayloads;

/** The zod schema of each built-in SType's payload, by id. */
export const BUILTIN_PAYLOAD_SCHEMAS: { [K in BuiltinSTypeId]: z.ZodType<BuiltinPayloads[K]> } = {
  'org.agent.TaskPlan.v1': TaskPlanPayloadSchema,
  'org.agent.ToolInvocation.v1': ToolInvocationPayloadSchema,
  'org.agent.ToolResult.v1': ToolResultPayloadSchema,
  'ai.agent.Reasoning.v1': ReasoningPayloadSchema,
  'eval.rag.RAGQuery.v1': RAGQueryPayloadSchema,
  'eval.rag.RAGResponse.v1': RAGResponsePayloadSchema,
};

/** True when `stype` is one of the built-in STypes. */
export function isBuiltinSTypeId(stype: string): stype is BuiltinSTypeId {
  return Object.hasOwn(BUILTIN_PAYLOAD_SCHEMAS, stype);
}
