import { defineTool } from '@mtpx/executor';
import type { AssistantToolCall } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { objectProvider } from '../__fixtures__/object-provider';
import { createAgent } from '../index';

const call = (id: string, name: string): AssistantToolCall => ({
  id,
  name,
  arguments: {},
  depends_on: [],
});

function agentWith(ran: string[], calls: AssistantToolCall[]) {
  const tool = (name: string, risk: 'read_only' | 'write') =>
    defineTool({
      name,
      description: name,
      risk_level: risk,
      input_schema: { type: 'object' },
      execute: () => {
        ran.push(name);
        return name;
      },
    });
  return createAgent({
    provider: objectProvider([{ toolCalls: calls }]),
    tools: [tool('look', 'read_only'), tool('save', 'write')],
  });
}

describe('duplicate call ids: one rule for run() and stream()', () => {
  const calls = [call('dup', 'save'), call('dup', 'look'), call('other', 'look')];

  it.each(['run', 'stream'] as const)(
    '%s(): the first call with the id runs, the later one is invalid_plan and never runs',
    async (mode) => {
      const ran: string[] = [];
      const agent = agentWith(ran, calls);
      const output = mode === 'run' ? await agent.run('go') : await agent.stream('go').result;
      expect(ran.sort()).toEqual(['look', 'save']);
      const [first, second, third] = output.tool_results;
      expect(first).toMatchObject({ tool_name: 'save', success: true });
      expect(second).toMatchObject({
        tool_name: 'look',
        success: false,
        error_code: 'invalid_plan',
      });
      expect(second?.error).toMatch(/Call id "dup" is used twice \(calls\[0\] and calls\[1\]\)/);
      expect(third).toMatchObject({ tool_name: 'look', success: true });
    },
  );
});
