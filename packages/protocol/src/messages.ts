import { z } from 'zod';
import { measureJson } from './json-bounds';
import { ProviderPartSchema } from './provider-parts';
import { ToolCallSchema } from './tool-call';
import type { ToolResult } from './tool-result';

/** Instructions for the model. */
export const SystemMessageSchema = z.object({ role: z.literal('system'), content: z.string() });

/** What the user said. */
export const UserMessageSchema = z.object({ role: z.literal('user'), content: z.string() });

/**
 * A tool call as the model sent it. When its arguments text is not a JSON object, the
 * call is kept (with `arguments: {}`) so the model can be answered with an error:
 * `raw_arguments` holds the text and `arguments_error` says what is wrong.
 */
export const AssistantToolCallSchema = ToolCallSchema.extend({
  raw_arguments: z.string().optional(),
  arguments_error: z.string().optional(),
});

/**
 * The model's turn: text, tool calls, or both. `provider_parts` keeps what only the
 * provider that made the turn understands (thinking blocks with signatures, reasoning
 * fields, server-side tool blocks), so its next request can replay them exactly.
 */
export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.string().nullable(),
  tool_calls: z.array(AssistantToolCallSchema).optional(),
  provider_parts: z.array(ProviderPartSchema).optional(),
});

/** The result of one tool call, in the shape the native tool-call syntax sends back. */
export const ToolMessageSchema = z.object({
  role: z.literal('tool'),
  tool_call_id: z.string(),
  /** The tool that was called (Anthropic-style APIs and logs need it). */
  name: z.string(),
  content: z.string(),
  /** True when `content` describes a failure. */
  is_error: z.boolean().optional(),
});

/** Any message of a conversation, provider-neutral. */
export const MessageSchema = z.discriminatedUnion('role', [
  SystemMessageSchema,
  UserMessageSchema,
  AssistantMessageSchema,
  ToolMessageSchema,
]);

/** A system message: the instructions the model works under. */
export type SystemMessage = z.infer<typeof SystemMessageSchema>;
/** A user message: what the person (or the calling program) said. */
export type UserMessage = z.infer<typeof UserMessageSchema>;
/** One native tool call in an assistant message: its id, tool name and arguments. */
export type AssistantToolCall = z.infer<typeof AssistantToolCallSchema>;
/** An assistant message: the model's text and the tool calls it made. */
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;
/** A tool message: one call's result, sent back to the model. */
export type ToolMessage = z.infer<typeof ToolMessageSchema>;
/** Any message of a conversation: system, user, assistant or tool. */
export type Message = z.infer<typeof MessageSchema>;

/** Deepest output a tool message renders (JSON.stringify is safe far beyond it). */
const messageMaxDepth = 1000;

/**
 * The tool message that answers a call: a successful output as text (strings as they
 * are, other values as JSON), a failure as its error with `is_error: true`.
 *
 * @example
 * ```ts source="./protocol.examples.ts#toolMessageFromResult"
 * toolMessageFromResult(result); // { role: 'tool', tool_call_id: 'call_1', name: 'calculator.add', content: '42' }
 * ```
 */
export function toolMessageFromResult(result: ToolResult): ToolMessage {
  const base = { role: 'tool' as const, tool_call_id: result.call_id, name: result.tool_name };
  if (result.success) {
    if (typeof result.output === 'string') return { ...base, content: result.output };
    // Checked by an iterative walk first: JSON.stringify recurses, and a deep output
    // would overflow it.
    const measured = measureJson(result.output ?? null, { maxDepth: messageMaxDepth });
    if (!measured.ok) {
      return {
        ...base,
        content: `Error (tool_error): the tool's output cannot be sent: ${measured.message}.`,
        is_error: true,
      };
    }
    return { ...base, content: JSON.stringify(result.output ?? null) };
  }
  const code = result.error_code ? ` (${result.error_code})` : '';
  return { ...base, content: `Error${code}: ${result.error ?? 'the call failed'}`, is_error: true };
}
