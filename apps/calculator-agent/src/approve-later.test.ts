import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppRun, runAppProcess } from '@mtpx/example-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const appDirectory = join(import.meta.dirname, '..');
const runApp = (args: string[]): Promise<AppRun> =>
  runAppProcess(appDirectory, 'src/main.ts', args, { input: '' });

let state: string;
beforeEach(async () => {
  state = await mkdtemp(join(tmpdir(), 'calculator-agent-later-'));
});
afterEach(async () => {
  await rm(state, { recursive: true, force: true });
});

/** The run id and approval id `--approve-later` printed in its "next" line. */
function nextCommand(stdout: string): { runId: string; approvalId: string } {
  const match = /--run (\S+) --approve (apr_[0-9a-f]+)/.exec(stdout);
  if (match === null) throw new Error(`no next command in:\n${stdout}`);
  return { runId: match[1] as string, approvalId: match[2] as string };
}

describe('calculator-agent --approve-later (two processes)', () => {
  it('stops at the write and prints its pending approval; a second command approves it and finishes the run', async () => {
    const first = await runApp(['--approve-later', '--state', state, '--tool-latency', '0']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/waiting +run run_\S+ waits for approval/);
    expect(first.stdout).toMatch(
      /apr_[0-9a-f]{32} {2}call_6 {2}file\.write_file\(path: "backup\/notes\.txt", content: "Offsite budget/,
    );
    // Everything that does not need the write ran: the answer's arithmetic is done.
    expect(first.stdout).toMatch(/done {3}call_4 {2}→ 31/);
    const { runId, approvalId } = nextCommand(first.stdout);
    await expect(
      readFile(join(state, 'workspace', 'backup', 'notes.txt'), 'utf8'),
    ).rejects.toThrow();

    const second = await runApp(['--state', state, '--run', runId, '--approve', approvalId]);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/done {3}call_6 .*\[approved\]/);
    // Only the approved write ran in the second process: the rest came from the journal.
    expect(second.stdout).not.toMatch(/done {3}call_[1-5] /);
    expect(second.stdout).toMatch(/^answer +15 \+ \(4 × \(18 − 6\)\) \/ 3 = 31\./m);
    expect(await readFile(join(state, 'workspace', 'backup', 'notes.txt'), 'utf8')).toContain(
      'Offsite budget',
    );

    // The same decision again: the run has ended, nothing runs; an unknown approval is refused.
    const unknown = await runApp([
      '--state',
      state,
      '--run',
      'run_missing',
      '--approve',
      approvalId,
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('run_not_resumable');
  }, 120_000);
});
