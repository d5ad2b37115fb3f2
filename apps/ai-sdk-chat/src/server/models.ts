import { createOpenAI } from '@ai-sdk/openai';
import {
  type ModelServer,
  type ScriptedTurn,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import type { ChatModel } from './chat-request';

/** A model for one chat request, and how to let it go once the answer is sent. */
export interface ModelLease {
  model: ChatModel;
  release(): Promise<void>;
}

/** Gives a model for each chat request, by the chat's id. */
export interface ModelSource {
  lease(chatId: string): Promise<ModelLease>;
  /** Lets everything go (the offline servers). */
  close(): Promise<void>;
}

/** The question the offline page suggests (the scripted model answers any text so). */
export const OFFLINE_QUESTION =
  'Check stock and demand for product P-100, the weather and local time in San Francisco, things to see there and where I am; search the files for "quarterly report", save the first hit as a note, and email the team.';

/**
 * The offline model's script for the `n`-th message of a chat (1-based): one response
 * calling the ten tools (the note takes the first search result by `$ref`), then the
 * answer. Call ids carry `n`, so each message's calls are new. The model is the real
 * `@ai-sdk/openai` client speaking to a local server that plays this script in the OpenAI
 * Responses wire format (`startScriptedOpenAIServer`): a scripted model, not a recording.
 */
export function offlineTurns(n: number): ScriptedTurn[] {
  const id = (name: string) => `call_${name}_${n}`;
  return [
    {
      toolCalls: [
        { id: id('inventory'), name: 'getInventory', arguments: { productId: 'P-100' } },
        { id: id('demand'), name: 'getDemand', arguments: { productId: 'P-100' } },
        {
          id: id('weather'),
          name: 'get_weather',
          arguments: { location: 'San Francisco, CA', unit: 'celsius' },
        },
        { id: id('forecast'), name: 'getWeatherInformation', arguments: { city: 'San Francisco' } },
        { id: id('time'), name: 'getLocalTime', arguments: { location: 'San Francisco' } },
        { id: id('sights'), name: 'cityAttractions', arguments: { city: 'San Francisco' } },
        { id: id('where'), name: 'currentLocation', arguments: {} },
        { id: id('search'), name: 'search_files', arguments: { query: 'quarterly report' } },
        {
          id: id('note'),
          name: 'saveNote',
          arguments: { note: { $ref: id('search'), $path: '/results/0' } },
        },
        {
          id: id('email'),
          name: 'send_email',
          arguments: {
            to: 'team@example.com',
            subject: 'P-100 stock check',
            body: 'P-100: 42 units available, 31 requested.',
          },
        },
      ],
    },
    {
      text: 'P-100 has 42 units available against 31 requested, so demand is covered. San Francisco is 18 °C and partly cloudy, and it is 10am there; the Golden Gate Bridge and the Exploratorium are worth a visit. I saved the first "quarterly report" hit (document1.pdf, page 3) as a note and emailed the team.',
    },
  ];
}

/** Messages one offline chat may send (its script holds this many runs). */
export const OFFLINE_MESSAGES_PER_CHAT = 20;
/** Offline chats kept at once; the oldest one's server is closed past this. */
const OFFLINE_CHATS = 50;

/**
 * The offline model: one scripted OpenAI server on 127.0.0.1 per chat (a Responses API
 * conversation refers to the items its server issued), answering each message with the
 * scripted run.
 */
export function offlineModels(pace: { chunkDelayMs?: number } = {}): ModelSource {
  const servers = new Map<string, Promise<ModelServer>>();
  const start = () =>
    startScriptedOpenAIServer(
      Array.from({ length: OFFLINE_MESSAGES_PER_CHAT }, (_, index) =>
        offlineTurns(index + 1),
      ).flat(),
      {
        model: 'gpt-4.1-mini',
        firstByteDelayMs: 100,
        chunkDelayMs: pace.chunkDelayMs ?? 15,
        chunkSize: 24,
      },
    );
  return {
    async lease(chatId) {
      let server = servers.get(chatId);
      if (server === undefined) {
        server = start();
        servers.set(chatId, server);
        if (servers.size > OFFLINE_CHATS) {
          const [oldest] = servers.keys();
          if (oldest !== undefined) {
            void servers.get(oldest)?.then((each) => each.close());
            servers.delete(oldest);
          }
        }
      }
      const openai = createOpenAI({ baseURL: `${(await server).url}/v1`, apiKey: 'offline' });
      return { model: openai.responses('gpt-4.1-mini'), release: async () => {} };
    },
    async close() {
      const all = [...servers.values()];
      servers.clear();
      await Promise.all(all.map(async (server) => (await server).close()));
    },
  };
}

/** OpenAI itself (`OPENAI_API_KEY`), through the Responses API. */
export function openAIModels(modelId: string): ModelSource {
  if (!process.env.OPENAI_API_KEY) {
    throw new Error('--provider openai needs OPENAI_API_KEY in the environment.');
  }
  const openai = createOpenAI();
  return {
    lease: async () => ({ model: openai(modelId), release: async () => {} }),
    close: async () => {},
  };
}
