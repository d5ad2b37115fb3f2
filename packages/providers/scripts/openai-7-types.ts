// Type check run by openai-7.sh (not part of the package build), with `openai` resolved to
// the openai 7 prefix (scripts/tsconfig.openai-7.json), as it is for a user who installed
// openai 7: the adapters compile against openai 7's types, and an openai 7 client, with
// openai 7's client options, is what both OpenAI providers take and hand back.
import OpenAI from 'openai';
import { VERSION } from 'openai/version';
import { createOpenAIProvider, createOpenAIResponsesProvider } from '../src/openai';

const client = new OpenAI({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:1/v1' });
const chat = createOpenAIProvider({ model: 'gpt-4.1-mini', client });
const responses = createOpenAIResponsesProvider({
  model: 'gpt-5.1',
  apiKey: 'sk-test',
  clientOptions: { defaultHeaders: { 'x-test': '1' }, fetch: globalThis.fetch },
});
export const clients: OpenAI[] = [chat.client, responses.client];
// Fails to compile if `openai` resolved to another major than 7.
export const major: `7.${string}` = VERSION;
