import { afterEach } from 'vitest';
import {
  type JsonResponseScript,
  type ModelServer,
  type ResponseScript,
  startModelServer,
} from '../testing/model-server';

type Json = Record<string, unknown>;

/** One recorded answer, and the assistant turn it holds (the content blocks, or the message). */
export interface RecordedAnswer {
  script: ResponseScript;
  turn: Json;
}

/**
 * How a real API checks a follow-up request: the 400 it answers when the request breaks
 * one of its rules, `undefined` when the request is fine. `issued` holds the assistant
 * turns answered so far, in order: the k-th assistant message of the request is the k-th.
 */
export type ApiRule = (body: Json, issued: readonly Json[]) => JsonResponseScript | undefined;

const badRequest = (body: unknown): JsonResponseScript => ({
  type: 'json',
  status: 400,
  headers: { 'x-should-retry': 'false' },
  body,
});

const anthropicError = (message: string) =>
  badRequest({ type: 'error', error: { type: 'invalid_request_error', message } });

const assistantMessages = (body: Json) =>
  ((body.messages as Json[] | undefined) ?? [])
    .map((message, index) => ({ message, index }))
    .filter(({ message }) => message.role === 'assistant');

const blocksOf = (message: Json): Json[] =>
  typeof message.content === 'string'
    ? [{ type: 'text', text: message.content }]
    : ((message.content as Json[] | undefined) ?? []);

/**
 * The Messages API with extended thinking on: every thinking block sent back must be one
 * it issued, signature unchanged (`Invalid \`signature\` in \`thinking\` block`), and an
 * assistant turn that began with thinking must begin with it again (`Expected \`thinking\`
 * or \`redacted_thinking\`, but found \`tool_use\``, the API's own words).
 */
export const anthropicThinkingRule: ApiRule = (body, issued) => {
  const thinking = body.thinking as Json | undefined;
  if (thinking === undefined || thinking.type === 'disabled') return undefined;
  for (const [k, { message, index }] of assistantMessages(body).entries()) {
    const sent = blocksOf(message);
    const original = (issued[k]?.content as Json[] | undefined) ?? [];
    for (const [position, block] of sent.entries()) {
      if (block.type !== 'thinking' && block.type !== 'redacted_thinking') continue;
      const known = original.some((candidate) =>
        block.type === 'thinking'
          ? candidate.signature === block.signature && candidate.thinking === block.thinking
          : candidate.data === block.data,
      );
      if (!known) {
        return anthropicError(
          block.type === 'thinking'
            ? `messages.${index}.content.${position}: Invalid \`signature\` in \`thinking\` block`
            : `messages.${index}.content.${position}: Invalid \`data\` in \`redacted_thinking\` block`,
        );
      }
    }
    const beganWithThinking = ['thinking', 'redacted_thinking'].includes(String(original[0]?.type));
    const first = sent[0]?.type;
    if (beganWithThinking && first !== 'thinking' && first !== 'redacted_thinking') {
      return anthropicError(
        `messages.${index}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`,
      );
    }
  }
  return undefined;
};

/** DeepSeek in thinking mode: an assistant message with tool calls must carry `reasoning_content`. */
export const deepSeekReasoningRule: ApiRule = (body) => {
  for (const { message, index } of assistantMessages(body)) {
    if (message.tool_calls !== undefined && !('reasoning_content' in message)) {
      return badRequest({
        error: {
          message: `Missing \`reasoning_content\` field in the assistant message at message index ${index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request_error',
        },
      });
    }
  }
  return undefined;
};

const signatureOf = (value: unknown): unknown =>
  ((value as Json | undefined)?.google as Json | undefined)?.thought_signature;

/**
 * Gemini's OpenAI-compatible endpoint: a function call it signed must come back with its
 * `thought_signature` (on the call's `extra_content`, or for Gemini 2.5 on the message's).
 */
export const geminiSignatureRule: ApiRule = (body, issued) => {
  for (const [k, { message, index }] of assistantMessages(body).entries()) {
    const original = issued[k] ?? {};
    const originalCalls = (original.tool_calls as Json[] | undefined) ?? [];
    const sentCalls = (message.tool_calls as Json[] | undefined) ?? [];
    for (const [position, call] of originalCalls.entries()) {
      const expected =
        signatureOf(call.extra_content) ??
        (position === 0 ? signatureOf(original.extra_content) : undefined);
      if (expected === undefined) continue;
      const sent = sentCalls[position];
      const carried =
        signatureOf(sent?.extra_content) ??
        (position === 0 ? signatureOf(message.extra_content) : undefined);
      if (carried !== expected) {
        const name = String((call.function as Json | undefined)?.name);
        return badRequest({
          error: {
            code: 400,
            message: `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\` , position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
            status: 'INVALID_ARGUMENT',
          },
        });
      }
    }
  }
  return undefined;
};

/** A replay server per test: recorded answers in order, each follow-up checked by `rule` first. */
export function replayServerPerTest() {
  let current: ModelServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    async start(answers: readonly RecordedAnswer[], rule?: ApiRule): Promise<ModelServer> {
      await current?.close();
      const issued: Json[] = [];
      current = await startModelServer({
        responses: (request) => {
          const body = (request.body ?? {}) as Json;
          const refused = rule?.(body, issued);
          if (refused !== undefined) return refused;
          const next = answers[issued.length];
          if (next === undefined) {
            return badRequest({ error: { message: 'replay server: no recorded answer left' } });
          }
          issued.push(next.turn);
          return next.script;
        },
      });
      return current;
    },
    get requests() {
      return current?.requests ?? [];
    },
  };
}
