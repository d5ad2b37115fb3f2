import type { AgentEvent } from '@mtpx/agent';
import { describe, expect, it } from 'vitest';
import { streamOutput } from './terminal-output';
import { TimelineView } from './timeline-view';

function render(events: unknown[]): string {
  let text = '';
  const view = new TimelineView(
    streamOutput({ write: (chunk: string) => (text += chunk) }, false),
    { chartWidth: 20 },
  );
  for (const event of events) view.handle(event as AgentEvent);
  return text;
}

const base = { runId: 'r', round: 1 };

describe('TimelineView, drawn from the run view', () => {
  it('names each call a call waits for once', () => {
    const text = render([
      { ...base, type: 'round-started', at: 0, messageCount: 1, tools: ['t'] },
      {
        ...base,
        type: 'tool-call-ready',
        at: 1,
        index: 0,
        toolCall: { id: 'c2', name: 't', arguments: { a: { $ref: 'c1' }, b: { $ref: 'c1' } } },
        call: {
          id: 'c2',
          name: 't',
          arguments: { a: { $ref: 'c1' }, b: { $ref: 'c1' } },
          depends_on: [],
        },
        aliases: {},
        refused: false,
      },
      { ...base, type: 'call-started', at: 5, callId: 'c2', toolName: 't' },
    ]);
    expect(text).toContain('t(a: $c1, b: $c1)  needs c1\n');
    expect(text).toContain('waited 4 ms for c1\n');
  });

  it('draws an executor’s own events (no run, no round) instead of failing', () => {
    const text = render([
      { type: 'plan-started', at: 0, issues: [], callCount: 1 },
      { type: 'call-started', at: 1, callId: 'p1', toolName: 'calculator.add' },
      {
        type: 'call-finished',
        at: 3,
        callId: 'p1',
        toolName: 'calculator.add',
        durationMs: 2,
        success: true,
        cached: false,
        result: {
          call_id: 'p1',
          tool_name: 'calculator.add',
          output: 3,
          success: true,
          cached: false,
        },
      },
    ]);
    expect(text).toMatch(/done {3}p1 {6}→ 3/);
  });
});
