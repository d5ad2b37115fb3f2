import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { finalTurn, seedQuestion, seedTurn } from '../__fixtures__/seed';
import { createAgent } from '../index';

describe('RunOutput names (camelCase, with the snake_case twins deprecated for one minor)', () => {
  it('run() and stream() set each camelCase field and its deprecated twin to the same value', async () => {
    for (const mode of ['run', 'stream'] as const) {
      const agent = createAgent({
        provider: scriptedProvider([seedTurn(), finalTurn]),
        tools: [calculatorToolkit()],
      });
      const options = { sessionId: `chat-${mode}`, runId: `run_${mode}` };
      const output =
        mode === 'run'
          ? await agent.run(seedQuestion, options)
          : await agent.stream(seedQuestion, options).result;
      expect(output).toMatchObject({
        runId: `run_${mode}`,
        stopReason: 'final',
        sessionId: `chat-${mode}`,
      });
      expect(output.finalText).toBe(finalTurn.text);
      expect(output.toolResults).toHaveLength(4);
      expect(output.run_id).toBe(output.runId);
      expect(output.final_text).toBe(output.finalText);
      expect(output.tool_results).toBe(output.toolResults);
      expect(output.stop_reason).toBe(output.stopReason);
      expect(output.session_id).toBe(output.sessionId);
    }
  });

  it('asTool takes timeoutMs, and the deprecated timeout_ms still', () => {
    const agent = createAgent({ name: 'calc', provider: scriptedProvider([]), tools: [] });
    expect(agent.asTool({ timeoutMs: 1000 }).timeoutMs).toBe(1000);
    expect(agent.asTool({ timeout_ms: 2000 }).timeoutMs).toBe(2000);
  });
});
