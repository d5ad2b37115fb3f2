import type { AgentEvent } from '@mtpx/agent';
import { Terminal } from '@mtpx/example-kit';
import { WrittenText } from '@mtpx/example-kit/testing';
import { TimelineView } from '@mtpx/inspector';
import { describe, expect, it } from 'vitest';

function render(events: AgentEvent[], color: boolean): string {
  const out = new WrittenText();
  const view = new TimelineView(new Terminal(out, color), { chartWidth: 20 });
  for (const event of events) view.handle(event);
  return out.text();
}

const base = { runId: 'run_1', at: 5 };
const roundStarted: AgentEvent = {
  ...base,
  type: 'round-started',
  round: 1,
  messageCount: 2,
  tools: ['calculator.add'],
};
const roundFinished = (reasoning?: string): AgentEvent => ({
  ...base,
  type: 'round-finished',
  round: 1,
  message: { role: 'assistant', content: 'It is 5.' },
  finishReason: 'stop',
  ...(reasoning === undefined ? {} : { reasoning }),
  modelMs: 4,
  durationMs: 4,
  toolResults: [],
});

describe('the timeline', () => {
  it('shows the model’s reasoning dimmed, on one line', () => {
    const plain = render([roundStarted, roundFinished('Add 2\nand 3.')], false);
    expect(plain).toMatch(/think {2}Add 2 and 3\./);
    const colored = render([roundStarted, roundFinished('Add 2 and 3.')], true);
    expect(colored).toContain('\u001b[2mAdd 2 and 3.\u001b[22m');
  });

  it('has no reasoning line when the model showed none', () => {
    expect(render([roundStarted, roundFinished()], false)).not.toContain('think');
  });

  it('draws a server tool block as run by the API', () => {
    const text = render(
      [
        roundStarted,
        {
          ...base,
          type: 'server-tool-used',
          round: 1,
          blockType: 'server_tool_use',
          id: 'srvtoolu_01',
          name: 'web_search',
        },
      ],
      false,
    );
    expect(text).toMatch(/server srvtoolu_01 web_search {2}server_tool_use, run by the API/);
  });
});
