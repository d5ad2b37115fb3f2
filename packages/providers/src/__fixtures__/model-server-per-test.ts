import { afterEach } from 'vitest';
import {
  type JsonResponseScript,
  type ModelServer,
  type RecordedRequest,
  type ResponseScript,
  startModelServer,
} from '../testing/model-server';
import { anthropicEvents, jsonFixture, openAIChunks } from './fixtures';

/** The model server of the running test: started by the test, closed after it. */
export interface ModelServerPerTest {
  /** Starts this test's server, answering with `responses` in order. */
  start(responses: ResponseScript[]): Promise<ModelServer>;
  /** The URL of this test's server (it must have been started). */
  readonly url: string;
  /** What the server of this test has received so far. */
  readonly requests: readonly RecordedRequest[];
}

/** A model server per test, closed after each test (call at the top of a test file). */
export function modelServerPerTest(): ModelServerPerTest {
  let current: ModelServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    start: async (responses) => {
      current = await startModelServer({ responses });
      return current;
    },
    get url() {
      if (current === undefined) throw new Error('start the model server first');
      return current.url;
    },
    get requests() {
      return current?.requests ?? [];
    },
  };
}

/** One API's recorded answers by fixture name: `sse('seed-chain')`, `json('rate-limited', 429)`. */
export function recordedResponses(api: 'openai' | 'anthropic') {
  return {
    sse: (name: string, end?: 'destroy'): ResponseScript => ({
      type: 'sse',
      events:
        api === 'openai'
          ? openAIChunks(`openai/${name}.chunks.txt`)
          : anthropicEvents(`anthropic/${name}.chunks.txt`),
      ...(end ? { end } : {}),
    }),
    json: (name: string, status = 200, headers: Record<string, string> = {}): JsonResponseScript => ({
      type: 'json',
      body: jsonFixture(`${api}/${name}.json`),
      status,
      headers,
    }),
  };
}
