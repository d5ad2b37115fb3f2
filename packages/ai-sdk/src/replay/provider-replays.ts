import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import type { Provider } from '@mtpx/protocol';
import { fromLanguageModel } from '../model/from-language-model';
import {
  anthropicIssuedBlocks,
  anthropicRecording,
  anthropicRule,
  anthropicSeedRound,
  anthropicWire,
} from './anthropic-replay';
import {
  bedrockDelta,
  bedrockRecording,
  bedrockRule,
  bedrockSeedRound,
  bedrockWire,
} from './bedrock-replay';
import { googleRecording, googleRule, googleSeedRound, googleWire } from './google-replay';
import { chatRecording, chatRule, chatSeedRound, chatWire } from './openai-chat-replay';
import {
  recordedResponses,
  responsesRule,
  responsesSeedRound,
  responsesWire,
} from './openai-responses-replay';
import { copy, type Json } from './recorded';
import type { ReplayApi } from './recorded-replay';

/** One real AI SDK provider package, replayed: its API, its recorded rounds, its model. */
export interface ProviderReplay {
  name: string;
  api: ReplayApi;
  /** The seed's six calls in one recorded response (see each builder), and the ids they carry. */
  seed(): { events: Json[]; callIds?: string[] };
  /** A recorded final answer (text, after reasoning). */
  final: Json[];
  /** `fromLanguageModel` on the package's model, pointed at `url`. */
  provider(url: string): Provider;
  /** The index of the first chunk that closes the response (finish reason, usage). */
  closing(events: readonly Json[]): number;
  /** The response cut off by the output-token limit: its closing chunks say so, as the API does. */
  cutByLength(events: readonly Json[]): Json[];
  /** The reasoning data a follow-up request carried (`sent`), and what the seed response issued. */
  reasoningCarried(body: Json, seed: readonly Json[]): { sent: unknown; issued: unknown };
}

const firstAssistant = (body: Json, key = 'messages', role = 'assistant'): Json =>
  ((body[key] as Json[] | undefined) ?? []).find((message) => message.role === role) ?? {};
const joined = (values: unknown[]) => values.filter((value) => typeof value === 'string').join('');

const responsesFinal = recordedResponses().at(-1) as Json[];
const chatFinal = chatRecording();

export const PROVIDER_REPLAYS: ProviderReplay[] = [
  {
    name: '@ai-sdk/openai (Responses)',
    api: {
      wire: responsesWire,
      headers: { 'content-type': 'text/event-stream' },
      rule: responsesRule,
    },
    seed: responsesSeedRound,
    final: responsesFinal,
    provider: (url) =>
      fromLanguageModel(
        createOpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1` }).responses('gpt-5.1-codex-max'),
        {
          settings: { providerOptions: { openai: { store: false } } },
        },
      ),
    closing: (events) => events.findIndex((event) => event.type === 'response.completed'),
    cutByLength: (events) =>
      events.map((event) => {
        if (event.type !== 'response.completed') return copy(event);
        const response = copy(event.response as Json);
        response.status = 'incomplete';
        response.incomplete_details = { reason: 'max_output_tokens' };
        return { ...copy(event), type: 'response.incomplete', response };
      }),
    reasoningCarried: (body, seed) => {
      const sent =
        ((body.input as Json[] | undefined) ?? []).find((item) => item.type === 'reasoning') ?? {};
      const issued =
        seed
          .filter((event) => event.type === 'response.output_item.done')
          .map((event) => event.item as Json)
          .find((item) => item.type === 'reasoning') ?? {};
      return {
        sent: { id: sent.id, encrypted_content: sent.encrypted_content },
        issued: { id: issued.id, encrypted_content: issued.encrypted_content },
      };
    },
  },
  {
    name: '@ai-sdk/openai (Chat Completions)',
    api: { wire: chatWire, headers: { 'content-type': 'text/event-stream' }, rule: chatRule },
    seed: chatSeedRound,
    final: chatFinal,
    provider: (url) =>
      fromLanguageModel(
        createOpenAI({ apiKey: 'sk-test', baseURL: `${url}/v1` }).chat('gpt-4.1-nano'),
      ),
    closing: (events) =>
      events.findIndex(
        (event) => ((event.choices as Json[])[0] as Json | undefined)?.finish_reason != null,
      ),
    cutByLength: (events) =>
      events.map((event) => {
        const copied = copy(event);
        const choice = (copied.choices as Json[])[0] as Json | undefined;
        if (choice?.finish_reason != null) choice.finish_reason = 'length';
        return copied;
      }),
    // Chat Completions sends no reasoning back (OpenAI keeps it hidden in this API).
    reasoningCarried: () => ({ sent: undefined, issued: undefined }),
  },
  {
    name: '@ai-sdk/anthropic (Messages, extended thinking)',
    api: {
      wire: anthropicWire,
      headers: { 'content-type': 'text/event-stream' },
      rule: anthropicRule,
    },
    seed: anthropicSeedRound,
    final: anthropicRecording('anthropic-clear-thinking.1.chunks.txt'),
    provider: (url) =>
      fromLanguageModel(
        createAnthropic({ apiKey: 'test', baseURL: `${url}/v1` })('claude-sonnet-4-5'),
        {
          settings: {
            providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
          },
        },
      ),
    closing: (events) => events.findIndex((event) => event.type === 'message_delta'),
    cutByLength: (events) =>
      events.map((event) =>
        event.type === 'message_delta'
          ? { ...copy(event), delta: { ...(event.delta as Json), stop_reason: 'max_tokens' } }
          : copy(event),
      ),
    reasoningCarried: (body, seed) => ({
      sent: ((firstAssistant(body).content as Json[] | undefined) ?? [])[0],
      issued: anthropicIssuedBlocks(seed)[0],
    }),
  },
  {
    name: "@ai-sdk/google (Gemini 3's streamGenerateContent, thought signatures)",
    api: { wire: googleWire, headers: { 'content-type': 'text/event-stream' }, rule: googleRule },
    seed: googleSeedRound,
    final: googleRecording('google-reasoning-gemini3.chunks.txt'),
    provider: (url) =>
      fromLanguageModel(
        createGoogleGenerativeAI({ apiKey: 'test', baseURL: `${url}/v1beta` })(
          'gemini-3-pro-preview',
        ),
      ),
    closing: (events) =>
      events.findIndex(
        (event) =>
          ((event.candidates as Json[] | undefined)?.[0] as Json | undefined)?.finishReason !==
          undefined,
      ),
    cutByLength: (events) =>
      events.map((event) => {
        const copied = copy(event);
        const candidate = (copied.candidates as Json[] | undefined)?.[0] as Json | undefined;
        if (candidate?.finishReason !== undefined) candidate.finishReason = 'MAX_TOKENS';
        return copied;
      }),
    reasoningCarried: (body, seed) => {
      const parts = (firstAssistant(body, 'contents', 'model').parts as Json[] | undefined) ?? [];
      const candidate = ((seed[0] as Json).candidates as Json[])[0] as Json;
      const issued = ((candidate.content as Json).parts as Json[])[0] as Json;
      return { sent: parts[0]?.thoughtSignature, issued: issued.thoughtSignature };
    },
  },
  {
    name: '@ai-sdk/amazon-bedrock (ConverseStream, Claude reasoning)',
    api: {
      wire: bedrockWire,
      headers: { 'content-type': 'application/vnd.amazon.eventstream' },
      rule: bedrockRule,
    },
    seed: bedrockSeedRound,
    final: bedrockRecording('amazon-bedrock-reasoning.chunks.txt'),
    provider: (url) =>
      fromLanguageModel(
        createAmazonBedrock({
          region: 'us-east-1',
          baseURL: url,
          accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
          secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        })('us.anthropic.claude-sonnet-4-5-20250929-v1:0'),
        {
          settings: {
            providerOptions: {
              bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 1024 } },
            },
          },
        },
      ),
    closing: (events) =>
      events.findIndex((event) => event.metadata !== undefined || event.messageStop !== undefined),
    cutByLength: (events) =>
      events.map((event) =>
        event.messageStop !== undefined
          ? { messageStop: { ...(event.messageStop as Json), stopReason: 'max_tokens' } }
          : copy(event),
      ),
    reasoningCarried: (body, seed) => {
      const reasoning = seed.map(
        (event) => bedrockDelta(event).reasoningContent as Json | undefined,
      );
      return {
        sent: ((firstAssistant(body).content as Json[] | undefined) ?? [])[0]?.reasoningContent,
        issued: {
          reasoningText: {
            text: joined(reasoning.map((each) => each?.text)),
            signature: joined(reasoning.map((each) => each?.signature)),
          },
        },
      };
    },
  },
];

/** The replay whose name begins with `prefix` (`@ai-sdk/openai (Responses)`, `@ai-sdk/google`). */
export function providerReplay(prefix: string): ProviderReplay {
  const found = PROVIDER_REPLAYS.find((replay) => replay.name.startsWith(prefix));
  if (found === undefined) throw new Error(`no provider replay named ${prefix}`);
  return found;
}
