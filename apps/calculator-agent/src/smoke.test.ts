import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '@mtpx/agent';
import { type AppProcessOptions, type AppRun, runAppProcess } from '@mtpx/example-kit/testing';
import { listRuns, readRun } from '@mtpx/inspector';
import { safeParseJson } from '@mtpx/protocol';
import { providerNames } from '@mtpx/providers';
import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { TOOL_ROUND } from './scenario';

const appDirectory = join(import.meta.dirname, '..');

/** Runs the app as `pnpm demo` does (`tsx src/main.ts …`), feeds `input`, waits for it to exit. */
function runApp(args: string[], options: AppProcessOptions = {}): Promise<AppRun> {
  return runAppProcess(appDirectory, 'src/main.ts', args, {
    ...options,
    input: options.input ?? '',
  });
}

/** The JSON lines of `--json`; a line that is not JSON fails the test. */
function events(stdout: string): AgentEvent[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const parsed = safeParseJson(line);
      if (!parsed.ok) throw new Error(`not a JSON line: ${line}`);
      return parsed.value as unknown as AgentEvent;
    });
}

describe.concurrent('calculator-agent (smoke)', () => {
  it('pnpm demo: the timeline of one tool round and the answer 31, offline', async () => {
    const { code, stdout, stderr } = await runApp([]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    for (const call of [
      'call_1  calculator.subtract(a: 18, b: 6)',
      'call_2  calculator.multiply(a: 4, b: $call_1)  needs call_1',
      'call_3  calculator.divide(a: $call_2, b: 3)  needs call_2',
      'call_4  calculator.add(a: 15, b: $call_3)  needs call_3',
      'call_5  file.read_file(path: "notes.txt")',
      'call_6  file.write_file(path: "backup/notes.txt", content: $call_5)  needs call_5',
    ])
      expect(stdout).toContain(`ready  ${call}`);
    expect(stdout).toMatch(/done {3}call_4 {2}→ 31/);
    // The round's chart: the model's stream and one bar per call, on one axis.
    expect(stdout).toMatch(/^ {2}model +▒+/m);
    for (const id of ['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6'])
      expect(stdout).toMatch(new RegExp(`^  ${id} \\S+ +[ ·]*█+`, 'm'));
    expect(stdout).toContain('6 calls from ONE model response');
    expect(stdout).toMatch(/^answer +15 \+ \(4 × \(18 − 6\)\) \/ 3 = 31\./m);
    expect(stdout).toContain('2 model calls · 1 tool round · 6 tool calls');
    expect(stdout).not.toContain('\u001b['); // piped: no colour
  });

  it('at 80 columns: no line is wider, no word is cut, the axis keeps its end label', async () => {
    const { code, stdout } = await runApp(['--tool-latency', '0'], { env: { COLUMNS: '80' } });
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const answer = lines.slice(lines.findIndex((line) => line.startsWith('answer')));
    const joined = answer
      .slice(
        0,
        answer.findIndex((line) => line.startsWith('usage')),
      )
      .map((line) => line.trim())
      .join(' ');
    expect(joined).toContain('The note says: "Offsite budget, in thousands of euros:');
    expect(stdout).toMatch(/^ +0 .* (\d+ ms|\d\.\d\d s)$/m);
    // One number format: no `1023–1.18 s`, no `in 8102 ms`.
    expect(stdout).not.toMatch(/\d{4} ms|(^|[^.\d])\d+–\d+\.\d+ s/m);
  });

  it('--json prints the event stream; calls start while the model is still writing', async () => {
    const { code, stdout } = await runApp(['--json']);
    expect(code).toBe(0);
    const stream = events(stdout);
    expect(stream[0]).toMatchObject({ type: 'run-started', streaming: true, eagerDispatch: true });
    const ready = stream.filter((event) => event.type === 'tool-call-ready');
    expect(ready.map((event) => event.toolCall.id)).toEqual(
      TOOL_ROUND.toolCalls?.map((call) => call.id),
    );
    // Each call once, with the graph's edges; times rounded; unknown usage null.
    const second = ready[1] as Extract<AgentEvent, { type: 'tool-call-ready' }>;
    expect(second).not.toHaveProperty('call');
    expect(second.toolCall.depends_on).toEqual(['call_1']);
    for (const event of stream)
      expect(Number.isInteger(event.at * 10), String(event.at)).toBe(true);
    const firstStart = stream.findIndex((event) => event.type === 'call-started');
    const lastReady = stream.lastIndexOf(ready[ready.length - 1] as AgentEvent);
    expect(firstStart).toBeLessThan(lastReady); // eager dispatch
    const finished = stream.at(-1);
    expect(finished).toMatchObject({
      type: 'run-finished',
      output: { stop_reason: 'final', rounds: 2, usage: null },
    });
    expect(finished?.type === 'run-finished' && finished.output.final_text).toContain('= 31.');
  });

  it('--no-eager starts the calls only after the stream has ended', async () => {
    const { code, stdout } = await runApp(['--json', '--no-eager']);
    expect(code).toBe(0);
    const stream = events(stdout);
    const firstStart = stream.findIndex((event) => event.type === 'call-started');
    const lastReady = stream.findLastIndex((event) => event.type === 'tool-call-ready');
    expect(firstStart).toBeGreaterThan(lastReady);
  });

  it('--record DIR records the run for the Inspector and prints its link', async ({
    onTestFinished,
  }) => {
    const dir = await mkdtemp(join(tmpdir(), 'calculator-agent-record-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const { code, stdout } = await runApp(['--record', dir]);
    expect(code).toBe(0);
    const link = /^inspect +http:\/\/127\.0\.0\.1:\d+\/runs\/(run_\S+) /m.exec(stdout);
    expect(link).not.toBeNull();
    const runs = await listRuns(dir);
    expect(runs).toEqual([
      expect.objectContaining({ runId: link?.[1], status: 'finished', rounds: 2, calls: 6 }),
    ]);
    const run = await readRun(dir, link?.[1] as string);
    expect(run.view.rounds[0]?.calls.map((call) => call.id)).toEqual(
      TOOL_ROUND.toolCalls?.map((call) => call.id),
    );
    expect(run.view.finalText).toContain('= 31.');
  });

  it('--ask asks before the write; yes runs it, flagged approved', async () => {
    const { code, stdout } = await runApp(['--ask'], { input: 'y\n' });
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /\? allow call_6 file\.write_file\(path: "backup\/notes\.txt", content: "Offsite budget.*\(write\)\? \(y\/N\) y/,
    );
    expect(stdout).toMatch(/done {3}call_6 .*\[approved\]/);
    expect(stdout).toContain('I backed up notes.txt to backup/notes.txt.');
  });

  it('--ask: no runs nothing, flagged denied, and the model hears why', async () => {
    const { code, stdout } = await runApp(['--ask'], { input: 'n\n' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/fail {3}call_6 .*denied.*\[denied\]/);
    expect(stdout).toContain('I did not back up notes.txt');
    expect(stdout).toMatch(/= 31\./);
  });

  it('a real provider adapter, against a local scripted OpenAI server', async ({
    onTestFinished,
  }) => {
    const server = await startScriptedOpenAIServer([
      TOOL_ROUND,
      { text: '15 + (4 × (18 − 6)) / 3 = 31.' },
    ]);
    onTestFinished(() => server.close());
    const { code, stdout } = await runApp(
      ['--provider', 'openai', '--model', 'test-model', '--base-url', `${server.url}/v1`],
      { env: { OPENAI_API_KEY: 'test-key' } },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('openai test-model');
    expect(stdout).toContain('6 calls from ONE model response');
    expect(stdout).toMatch(/^answer +15 \+ \(4 × \(18 − 6\)\) \/ 3 = 31\./m);
    expect(server.requests).toHaveLength(2);
  });

  it('a missing API key is one line naming the variable, and no stack trace', async () => {
    const { code, stdout, stderr } = await runApp(['--provider', 'anthropic'], {
      env: { ANTHROPIC_API_KEY: '' },
    });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'calculator-agent: --provider anthropic needs an API key: set the ANTHROPIC_API_KEY environment variable.\n',
    );
  });

  for (const [provider, keyVariable] of [
    ['anthropic', 'ANTHROPIC_API_KEY'],
    ['openai', 'OPENAI_API_KEY'],
  ] as const) {
    it(`--provider ${provider} with an unreachable --base-url names that URL, once`, async () => {
      const { code, stdout, stderr } = await runApp(
        ['--provider', provider, '--base-url', 'http://127.0.0.1:9'],
        { env: { [keyVariable]: 'test-key' } },
      );
      expect(code).toBe(1);
      const output = `${stdout}${stderr}`;
      expect(output.split('http://127.0.0.1:9').length - 1).toBe(1);
      expect(stderr).toContain(
        `calculator-agent: the model call failed: ${provider}: could not reach http://127.0.0.1:9`,
      );
      expect(stdout).toMatch(/^failed +round 1 · connection_error$/m);
    });
  }

  it('an unknown provider or a question without a model is a usage error', async () => {
    const unknown = await runApp(['--provider', 'skynet']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      `calculator-agent: Unknown --provider "skynet". Use one of: ${providerNames.join(', ')}.\n`,
    );
    const typo = await runApp(['--providr', 'groq']);
    expect(typo).toMatchObject({
      code: 2,
      stderr: 'calculator-agent: Unknown flag --providr: did you mean --provider? (see --help)\n',
    });
    const question = await runApp(['What is 2 + 2?']);
    expect(question.code).toBe(2);
    expect(question.stderr).toContain('needs a real model');
  });
});
