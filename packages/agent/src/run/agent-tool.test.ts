import { createExecutor } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { finalTurn, seedQuestion, seedTurn } from '../__fixtures__/seed';
import { type AgentEvent, createAgent } from '../index';

describe('agents as tools', () => {
  it('a lead agent delegates to a member agent, which runs its own tool round', async () => {
    const memberProvider = scriptedProvider([seedTurn(), finalTurn]);
    const member = createAgent({
      name: 'calculator',
      provider: memberProvider,
      tools: [calculatorToolkit()],
    });
    const memberEvents: AgentEvent[] = [];
    const leadProvider = scriptedProvider([
      {
        toolCalls: [
          { id: 'call_m1', name: 'agent.member.calculator', arguments: { input: seedQuestion } },
        ],
      },
      { text: 'My colleague says: 31.' },
    ]);
    const lead = createAgent({
      provider: leadProvider,
      tools: [member.asTool({ onEvent: (event) => memberEvents.push(event) })],
    });

    const output = await lead.run('Ask the calculator agent.');
    expect(output.final_text).toBe('My colleague says: 31.');
    expect(output.tool_results[0]).toMatchObject({
      call_id: 'call_m1',
      tool_name: 'agent.member.calculator',
      output: '15 + (4 × (18 − 6)) / 3 = 31.',
      success: true,
    });
    expect(memberProvider.requests[0]?.messages.at(-1)).toEqual({
      role: 'user',
      content: seedQuestion,
    });
    expect(memberEvents[0]).toMatchObject({ type: 'run-started', agentName: 'calculator' });
    expect(memberEvents.at(-1)?.type).toBe('run-finished');
    const offered = leadProvider.requests[0]?.tools[0];
    expect(offered).toMatchObject({
      name: 'agent.member.calculator',
      description: 'Delegates a task to the calculator agent and returns its answer.',
      risk_level: 'read_only',
    });
  });

  it('a member that stops without an answer fails the call with the reason', async () => {
    const member = createAgent({
      provider: scriptedProvider(() => ({
        text: 'Still working.',
        toolCalls: [{ name: 'calculator.add', arguments: { a: 1, b: 1 } }],
      })),
      tools: [calculatorToolkit()],
      maxRounds: 2,
    });
    const executor = createExecutor({
      tools: [member.asTool({ name: 'helper', description: 'Adds things.' })],
    });
    const [result] = await executor.executeToolCalls([
      { id: 'call_h', name: 'helper', arguments: { input: 'Add forever.' } },
    ]);
    expect(result).toMatchObject({
      success: false,
      error_code: 'tool_error',
      error:
        'The helper agent stopped without a final answer (it used all of its 2 rounds). Its last text: Still working.',
    });
  });

  it('a member whose model fails fails the call with the provider’s message', async () => {
    const member = createAgent({ provider: scriptedProvider([]), tools: [], name: 'empty' });
    const [result] = await createExecutor({ tools: [member.asTool()] }).executeToolCalls([
      { id: 'call_e', name: 'agent.member.empty', arguments: { input: 'Hello?' } },
    ]);
    expect(result?.error).toBe('scripted: the script holds 0 turn(s) and turn 1 was asked for.');
  });

  it('needs a name when the agent has none', () => {
    const agent = createAgent({ provider: scriptedProvider([]), tools: [] });
    expect(() => agent.asTool()).toThrow(/asTool needs a `name`/);
  });
});
