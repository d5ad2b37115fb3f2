import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent } from '@mtpx/agent';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { safeParseJson } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { listRuns, readRun, recordRuns } from '../index';
import { INDEX_FILE, runFilePath } from '../internal';

const folders: string[] = [];
async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'mtpx-inspector-'));
  folders.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

const chain = [
  {
    toolCalls: [
      { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
      { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    ],
  },
  { text: '48' },
];

describe('recordRuns', () => {
  it('writes every event of a run and reads it back whole', async () => {
    const dir = await dataFolder();
    const recorder = recordRuns({ dir });
    const seen: unknown[] = [];
    const agent = createAgent({
      provider: scriptedProvider(chain),
      tools: [calculatorToolkit()],
      onEvent: recorder,
    });
    const stream = agent.stream('Compute.', {
      runId: 'run_one',
      onEvent: (event) => seen.push(JSON.parse(JSON.stringify(event))),
    });
    await stream.result;
    await recorder.close();

    const run = await readRun(dir, 'run_one');
    expect(run.skippedLines).toBe(0);
    expect(run.header).toMatchObject({ $record: 'mtpx-run', version: 1, runId: 'run_one' });
    expect(run.events).toEqual(seen);
    expect(run.summary).toMatchObject({
      runId: 'run_one',
      status: 'finished',
      rounds: 2,
      calls: 2,
      errors: 0,
      finalText: '48',
      model: 'scripted',
    });
    const call2 = run.view.rounds[0]?.calls.find((call) => call.id === 'call_2');
    expect(call2).toMatchObject({
      references: ['call_1'],
      arguments: { a: 4, b: { $ref: 'call_1' } },
      resolvedArguments: { a: 4, b: 12 },
      output: 48,
      status: 'ok',
    });
    expect(await listRuns(dir)).toEqual([run.summary]);
    const index = (await readFile(join(dir, INDEX_FILE), 'utf8')).trim().split('\n');
    expect(
      index.map(
        (line) => (safeParseJson(line) as unknown as { value: { event: string } }).value.event,
      ),
    ).toEqual(['started', 'ended']);
  });

  it('records several runs at once, each in its own file', async () => {
    const dir = await dataFolder();
    const recorder = recordRuns({ dir });
    const agent = createAgent({
      provider: scriptedProvider([...chain, ...chain]),
      tools: [calculatorToolkit()],
      onEvent: recorder,
    });
    await Promise.all([
      agent.run('One.', { runId: 'run_a' }),
      agent.run('Two.', { runId: 'run_b' }),
    ]);
    await recorder.flush();
    const ids = (await listRuns(dir)).map((run) => run.runId).sort();
    expect(ids).toEqual(['run_a', 'run_b']);
    expect((await readRun(dir, 'run_a')).events[0]).toMatchObject({
      type: 'run-started',
      input: 'One.',
    });
  });

  it('keeps events it does not know as they are, and errors as name, message and code', async () => {
    const dir = await dataFolder();
    const recorder = recordRuns({ dir });
    const error = Object.assign(new Error('no network'), { code: 'offline' });
    recorder({ type: 'run-started', runId: 'run_x', at: 0 });
    recorder({
      type: 'approval-requested',
      runId: 'run_x',
      at: 1,
      callId: 'c',
      toolName: 't',
    } as never);
    recorder({ type: 'brand-new-thing', runId: 'run_x', at: 2, nested: { deep: [1, 2] } } as never);
    recorder({ type: 'run-failed', runId: 'run_x', at: 3, error, message: 'no network' } as never);
    await recorder.close();
    const run = await readRun(dir, 'run_x');
    expect(run.events.map((event) => event.type)).toEqual([
      'run-started',
      'approval-requested',
      'brand-new-thing',
      'run-failed',
    ]);
    expect(run.events[2]).toEqual({
      type: 'brand-new-thing',
      runId: 'run_x',
      at: 2,
      nested: { deep: [1, 2] },
    });
    expect(run.events[3]?.error).toEqual({ name: 'Error', message: 'no network', code: 'offline' });
    expect(run.view.other.map((event) => event.type)).toEqual(['brand-new-thing']);
    expect(run.summary.status).toBe('failed');
  });

  it('a run id that is not a file name cannot leave the folder', async () => {
    const dir = await dataFolder();
    const recorder = recordRuns({ dir });
    recorder({ type: 'run-started', runId: '../../etc/passwd', at: 0 });
    await recorder.close();
    expect(runFilePath(dir, '../../etc/passwd').startsWith(join(dir, 'runs'))).toBe(true);
    expect((await readRun(dir, '../../etc/passwd')).runId).toBe('../../etc/passwd');
  });

  it('a folder it cannot write is reported by flush(), never thrown into the run', async () => {
    const dir = await dataFolder();
    await appendFile(join(dir, 'file'), 'x');
    const recorder = recordRuns({ dir: join(dir, 'file', 'below') });
    const agent = createAgent({
      provider: scriptedProvider(chain),
      tools: [calculatorToolkit()],
      onEvent: recorder,
    });
    expect((await agent.run('Compute.')).final_text).toBe('48');
    await expect(recorder.flush()).rejects.toMatchObject({ code: 'record_write_failed' });
  });

  // One process (the Node running the tests, with tsx's loader), killed once its tool runs.
  // The timeout only catches a hang: on a loaded 2-core machine, starting a process that
  // loads the agent from source has taken over 30 s.
  it('a process killed mid-run leaves a readable partial run', async () => {
    const dir = await dataFolder();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '..', '__fixtures__', 'crashing-run.ts'), dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = once(child, 'exit');
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let stdout = '';
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes('in-tool\n')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`child exited (${code}) early: ${stderr}`)));
      });
    } finally {
      child.kill('SIGKILL');
      await exited;
    }
    // A torn last line, as a write cut short would leave.
    await appendFile(runFilePath(dir, 'run_crashed'), '{"type":"call-fin');

    const run = await readRun(dir, 'run_crashed');
    expect(run.skippedLines).toBe(1);
    expect(run.summary.status).toBe('running');
    expect(run.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run-started', 'round-started', 'tool-call-ready', 'call-started']),
    );
    expect(run.view.rounds[0]?.calls[0]).toMatchObject({ id: 'call_1', status: 'running' });
    expect((await listRuns(dir)).map((summary) => summary.runId)).toEqual(['run_crashed']);
  }, 120_000);
});
