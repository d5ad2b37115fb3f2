import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, runCli, startServe } from '../__fixtures__/spawn-cli';
import { planId, reasoning, taskPlan, toolInvocation } from '../__fixtures__/tutorial';

async function jsonFile(content: unknown): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'mpl-cli-'));
  const file = join(directory, 'payload.json');
  await writeFile(file, JSON.stringify(content));
  return file;
}

// Each test spawns the built bin several times, one after another; `serve` and the data
// commands load the engine (about 2 s of wall time on a busy 2-core machine), so 30 s per
// test was too little beside a second test suite. The tests share nothing (each its own
// folders, port 0): they run concurrently (vitest's default of 5 at a time).
describe('the mpl CLI (built bin)', { timeout: 120_000, concurrent: true }, () => {
  it.each([
    [[], /Usage: mpl <command>/],
    [['--help'], /Usage: mpl <command>/],
    [['serve', '--help'], /Usage: mpl serve/],
    [['schemas', 'list', '--help'], /Usage: mpl schemas list/],
    [['schemas', 'show', '--help'], /Usage: mpl schemas show ID/],
    [['validate', '--help'], /Usage: mpl validate ID FILE/],
    [['hash', '--help'], /Usage: mpl hash FILE/],
    [['provenance', '--help'], /Usage: mpl provenance PLAN_ID/],
  ])('mpl %s prints help', async (args, text) => {
    const result = await runCli(args);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(text);
  });

  it('prints its version and refuses unknown commands and options', async () => {
    expect((await runCli(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const unknown = await runCli(['launch']);
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown command: launch'),
    });
    expect((await runCli(['hash', '--nope', 'x'])).code).toBe(2);
    expect((await runCli(['serve', '--mode', 'loose'])).stderr).toMatch(
      /--mode must be strict or transparent/,
    );
    expect((await runCli(['serve', '--synchronous', 'off'])).stderr).toMatch(
      /--synchronous must be full or normal/,
    );
  });

  it('mpl schemas list --namespace org.agent, and schemas show', async () => {
    const list = await runCli(['schemas', 'list', '--namespace', 'org.agent']);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['org.agent.TaskPlan.v1', 'org.agent.ToolInvocation.v1', 'org.agent.ToolResult.v1']);
    const show = await runCli(['schemas', 'show', 'ai.agent.Reasoning.v1']);
    expect(JSON.parse(show.stdout)).toMatchObject({
      id: 'ai.agent.Reasoning.v1',
      schema: { title: 'Agent Reasoning Trace' },
    });
    expect((await runCli(['schemas', 'show', 'org.x.Y.v1'])).code).toBe(1);
  });

  it('mpl validate accepts a valid payload and lists the failing paths of an invalid one', async () => {
    const valid = await runCli(['validate', 'org.agent.TaskPlan.v1', await jsonFile(taskPlan)]);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toMatch(/^valid: .* is a org\.agent\.TaskPlan\.v1/);
    const invalid = await runCli([
      'validate',
      'org.agent.ToolInvocation.v1',
      await jsonFile({ ...toolInvocation, args: { context: { maxDocuments: 0 } } }),
    ]);
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain('[E-TOOL-ARG-COERCION]');
    expect(invalid.stdout).toContain('/args/query: is required (args, eval.rag.RAGQuery.v1)');
    const fromStdin = await runCli(['validate', 'ai.agent.Reasoning.v1', '-', '--json'], {
      input: JSON.stringify(reasoning),
    });
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ accepted: true, planId });
    expect((await runCli(['validate', 'org.x.Y.v1', await jsonFile({})])).stderr).toContain(
      '[E-UNKNOWN-STYPE]',
    );
  });

  it('mpl hash gives the reference BLAKE3 vector and sha256 by default', async () => {
    const file = await jsonFile({ outer: { z: 1, a: 2 }, array: [{ b: 2, a: 1 }] });
    expect((await runCli(['hash', file, '--alg', 'b3'])).stdout.trim()).toBe(
      'b3:afc1fc18681335630a177c4dde69cb45fc572cd3b746bcb24afa81884a6912d3',
    );
    expect((await runCli(['hash', file])).stdout.trim()).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await runCli(['hash', file, '--canonical'])).stdout.trim()).toBe(
      '{"array":[{"a":1,"b":2}],"outer":{"a":2,"z":1}}',
    );
    expect((await runCli(['hash', '/nonexistent.json'])).code).toBe(2);
  });

  it('mpl serve answers the tutorial’s curl request, and mpl provenance shows and verifies the chain', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mpl-serve-'));
    const serve = await startServe(['--data', dataDir, '--token', 'tutorial']);
    try {
      const headers = { 'content-type': 'application/json', authorization: 'Bearer tutorial' };
      const step1 = await fetch(`${serve.url}/call`, {
        method: 'POST',
        headers: { ...headers, 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
        body: JSON.stringify({ method: 'agent.plan', payload: taskPlan }),
      });
      expect(step1.status).toBe(200);
      const answer = await readJson(step1);
      expect(answer).toMatchObject({
        valid: true,
        sem_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      });
      const step2 = await fetch(`${serve.url}/call`, {
        method: 'POST',
        headers: { ...headers, 'X-MPL-SType': 'ai.agent.Reasoning.v1' },
        body: JSON.stringify({ method: 'agent.reason', payload: reasoning }),
      });
      expect(step2.status).toBe(200);
      const chain = await (
        await fetch(`${serve.url}/provenance?planId=${planId}`, { headers })
      ).json();
      expect(chain).toMatchObject({
        planId,
        chain: [
          { stype: 'org.agent.TaskPlan.v1', sem_hash: answer.sem_hash, parent_hash: null },
          { stype: 'ai.agent.Reasoning.v1', parent_hash: answer.sem_hash },
        ],
      });
      const printed = await runCli(['provenance', planId, '--data', dataDir, '--verify']);
      expect(printed.code).toBe(0);
      expect(printed.stdout).toContain('Chain length: 2');
      expect(printed.stdout).toContain('[org.agent.TaskPlan.v1]');
      expect(printed.stdout).toMatch(/verified: 2 entries/);
      const missing = await runCli(['provenance', 'no-such-plan', '--data', dataDir]);
      expect(missing).toMatchObject({
        code: 1,
        stderr: `No provenance is recorded for plan no-such-plan in ${join(dataDir, 'provenance.db')}.\n`,
      });
    } finally {
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
    }
  });

  it('mpl serve --synchronous normal records and answers', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mpl-serve-'));
    const serve = await startServe(['--data', dataDir, '--synchronous', 'normal']);
    try {
      const call = await fetch(`${serve.url}/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'X-MPL-SType': 'org.agent.TaskPlan.v1' },
        body: JSON.stringify({ method: 'agent.plan', payload: taskPlan }),
      });
      expect(call.status).toBe(200);
      expect(await readJson(call)).toMatchObject({ provenance: { plan_id: planId, seq: 1 } });
    } finally {
      serve.child.kill('SIGTERM');
      expect((await serve.exited).code).toBe(0);
    }
    const printed = await runCli(['provenance', planId, '--data', dataDir, '--verify']);
    expect(printed.stdout).toMatch(/verified: 1 entries|verified: 1 entry/);
  });

  it('mpl provenance without --data names the folder it read, and creates nothing there', async () => {
    const home = await mkdtemp(join(tmpdir(), 'mpl-home-'));
    const result = await runCli(['provenance', planId, '--verify'], {
      env: { HOME: home, USERPROFILE: home },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `No provenance database in ${join(home, '.mpl')} (no ${join(home, '.mpl', 'provenance.db')}): pass --data DIR, the folder the proxy was started with.\n`,
    );
    expect(await readdir(home)).toEqual([]);
  });

  it('names the option a typo was meant to be, and takes the `--` pnpm passes on', async () => {
    const typo = await runCli(['provenance', planId, '--verfy']);
    expect(typo).toMatchObject({
      code: 2,
      stderr: 'mpl: Unknown option --verfy: did you mean --verify?\nRun mpl --help for usage.\n',
    });
    const { version } = JSON.parse(
      await readFile(join(import.meta.dirname, '../../package.json'), 'utf8'),
    ) as { version: string };
    expect((await runCli(['--', '--version'])).stdout).toBe(`${version}\n`);
  });
});
