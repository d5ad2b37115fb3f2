import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import type { FinishReason } from '@mtpx/protocol';
import { createAnthropicProvider } from '@mtpx/providers/anthropic';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import {
  type ModelServer,
  type ScriptedTurn,
  startScriptedAnthropicServer,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, finalTurn } from '../__fixtures__/seed';
import { type AgentOptions, createAgent } from '../index';

let server: ModelServer | undefined;
let directory: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
  directory = undefined;
});

/** A `write` tool that appends a line to a file: each run leaves a visible trace. */
function noteTool(path: string) {
  return defineTool({
    name: 'notes.append',
    description: 'Append a line to the notes file.',
    risk_level: 'write',
    input_schema: {
      type: 'object',
      properties: { line: { type: 'string' } },
      required: ['line'],
    },
    execute: async ({ line }) => {
      await appendFile(path, `${String(line)}\n`);
      return 'appended';
    },
  });
}

const writingTurn = (finishReason: FinishReason): ScriptedTurn => ({
  toolCalls: [
    { id: 'call_read', name: 'calculator.add', arguments: { a: 1, b: 2 } },
    { id: 'call_write', name: 'notes.append', arguments: { line: 'paid' } },
  ],
  finishReason,
});

const adapters = {
  openai: {
    start: startScriptedOpenAIServer,
    provider: (url: string) =>
      createOpenAIProvider({
        model: 'gpt-4.1-mini',
        apiKey: 'sk-test',
        baseURL: `${url}/v1`,
        maxRetries: 0,
      }),
  },
  anthropic: {
    start: startScriptedAnthropicServer,
    provider: (url: string) =>
      createAnthropicProvider({
        model: 'claude-sonnet-4-6',
        apiKey: 'sk-ant-test',
        baseURL: url,
        maxRetries: 0,
      }),
  },
};

describe.each(Object.entries(adapters))(
  'safe eager dispatch through the %s adapter',
  (_, adapter) => {
    const agentFor = async (
      finishReason: FinishReason,
      options: Pick<AgentOptions, 'eagerDispatch'> = {},
    ) => {
      directory = mkdtempSync(join(tmpdir(), 'mtpx-safe-'));
      const notes = join(directory, 'notes.txt');
      server = await adapter.start([writingTurn(finishReason), finalTurn], { chunkSize: 4 });
      const agent = createAgent({
        provider: adapter.provider(server.url),
        tools: [calculatorToolkit(), noteTool(notes)],
        ...options,
      });
      return { agent, notes };
    };

    it('a streamed turn that writes a file and ends in `length` never writes it', async () => {
      const { agent, notes } = await agentFor('length');
      const { events, output } = await collect(agent.stream('Pay and note it.'));
      if (output === undefined) throw new Error('the run failed');
      expect(existsSync(notes)).toBe(false);
      const [read, write] = output.tool_results;
      expect(read).toMatchObject({ call_id: 'call_read', success: true, output: 3 });
      expect(write).toMatchObject({ call_id: 'call_write', success: false, skipped: true });
      expect(write?.error).toMatch(/^Not run: the response did not finish \(length\)/);
      const held = events.find((event) => event.type === 'call-held');
      expect(held).toMatchObject({ callId: 'call_write', reason: 'risk level write' });
      expect(events.some((event) => event.type === 'call-released')).toBe(false);
      expect(
        events.some((event) => event.type === 'call-started' && event.callId === 'call_write'),
      ).toBe(false);
      // The conversation stays valid: every call of the turn has its answer.
      const toolMessages = output.messages.filter((message) => message.role === 'tool');
      expect(toolMessages.map((message) => message.tool_call_id)).toEqual([
        'call_read',
        'call_write',
      ]);
    });

    it('with finish reason `tool_calls` the held write runs once, after the stream', async () => {
      const { agent, notes } = await agentFor('tool_calls');
      const { events, output } = await collect(agent.stream('Pay and note it.'));
      if (output === undefined) throw new Error('the run failed');
      expect(readFileSync(notes, 'utf8')).toBe('paid\n');
      expect(output.tool_results.map((result) => result.success)).toEqual([true, true]);
      const types = events
        .filter((event) => 'callId' in event && event.callId === 'call_write')
        .map((event) => event.type)
        .filter((type) => type !== 'tool-call-delta');
      expect(types).toEqual(['call-held', 'call-released', 'call-started', 'call-finished']);
      const readStarted = events.findIndex(
        (event) => event.type === 'call-started' && event.callId === 'call_read',
      );
      const roundEnd = events.findIndex((event) => event.type === 'call-released');
      expect(readStarted).toBeLessThan(roundEnd);
    });

    it("eagerDispatch 'all' keeps the old behaviour: the write runs even after `length`", async () => {
      const { agent, notes } = await agentFor('length', { eagerDispatch: 'all' });
      await collect(agent.stream('Pay and note it.'));
      expect(readFileSync(notes, 'utf8')).toBe('paid\n');
    });

    it('run() follows the same rule: no write for a turn that ended in `length`', async () => {
      const { agent, notes } = await agentFor('length');
      const output = await agent.run('Pay and note it.');
      expect(existsSync(notes)).toBe(false);
      expect(output.tool_results[1]?.error).toMatch(/did not finish \(length\)/);
    });
  },
);
