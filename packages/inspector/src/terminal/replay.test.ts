import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seedRunEvents } from '../__fixtures__/seed-run';
import { recordRuns, replayRun } from '../index';

describe('replayRun', () => {
  it('prints the recorded run as the demo draws it: calls, the round chart, the answer', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mtpx-replay-'));
    try {
      const recorder = recordRuns({ dir });
      await seedRunEvents({ onEvent: recorder });
      await recorder.close();
      let text = '';
      await replayRun(dir, 'run_seed', { write: (chunk: string) => (text += chunk) });
      expect(text).toContain('replay of run_seed');
      expect(text).toContain('ready  call_2  calculator.multiply(a: 4, b: $call_1)  needs call_1');
      expect(text).toMatch(/done {3}call_4 {2}→ 31/);
      expect(text).toMatch(/^ {2}model +▒+/m);
      for (const id of ['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6'])
        expect(text).toMatch(new RegExp(`^  ${id} \\S+ +[ ·]*█+`, 'm'));
      expect(text).toContain('6 calls from ONE model response');
      expect(text).toMatch(/^answer +31$/m);
      expect(text).not.toContain('\u001b[');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
