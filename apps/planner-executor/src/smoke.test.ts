import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningProxy, startProxy } from '@mtpx/mpl-proxy';
import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_STYPES_DIRECTORY } from './app';
import { SCRIPTED_PLAN, SUBMIT_PLAN_TOOL } from './planner';

const appDirectory = join(import.meta.dirname, '..');
const tsx = join(appDirectory, 'node_modules', '.bin', 'tsx');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** This process's environment without the colour switches vitest sets. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...rest } = process.env;
  return rest;
}

/** Runs the app as a user would (`tsx src/main.ts …`) and waits for it to exit. */
function runApp(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['src/main.ts', ...args], {
      cwd: appDirectory,
      env: { ...inheritedEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The `seq stype` pairs of the printed chain. */
function chainOf(stdout: string): string[] {
  return [...stdout.matchAll(/^ {11}(\d+) +(\S+) +sha256:/gm)].map(
    (match) => `${match[1]} ${match[2]}`,
  );
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function proxyFor(test: { stypes: string[] }): Promise<RunningProxy> {
  const dataDir = await mkdtemp(join(tmpdir(), 'planner-executor-test-'));
  const proxy = await startProxy({ port: 0, dataDir, stypes: test.stypes });
  cleanups.push(async () => {
    await proxy.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return proxy;
}

describe('planner-executor (smoke)', () => {
  it('runs the tutorial offline: a failure retried, the chain printed and verified', async () => {
    const { code, stdout, stderr } = await runApp([]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('scripted model (offline): one native tool call to submit_plan');
    expect(stdout).toContain('received the plan from its session');
    expect(stdout).toContain('Execute steps sequentially: 1 -> 2 -> 3.');
    expect(stdout).toContain('web_search failed');
    expect(stdout).toContain('failureStrategy retry: a new invocation (attempt 2 of 3)');
    expect(stdout).toContain('args valid against eval.rag.RAGQuery.v1');
    expect(stdout).toContain('args valid against org.report.Summary.v1');
    expect(stdout).toContain('plan completed: 3 of 3 steps succeeded, 1 retry');
    expect(stdout).toContain('from $29/month (Beta Inc Starter) to $199/month');
    expect(chainOf(stdout)).toEqual([
      '1 org.agent.TaskPlan.v1',
      '2 ai.agent.Reasoning.v1',
      '3 org.agent.ToolInvocation.v1',
      '4 org.agent.ToolResult.v1',
      '5 org.agent.ToolInvocation.v1',
      '6 org.agent.ToolResult.v1',
      '7 org.agent.ToolInvocation.v1',
      '8 org.agent.ToolResult.v1',
      '9 org.agent.ToolInvocation.v1',
      '10 org.agent.ToolResult.v1',
    ]);
    expect(stdout).toMatch(/^verified +10 entries/m);
    expect(stdout).not.toContain('\u001b['); // piped: no colour
  });

  it('without the failure, the chain is plan, reasoning and one invocation and result per step', async () => {
    const { code, stdout } = await runApp(['--', '--no-failure']);
    expect(code).toBe(0);
    expect(stdout).toContain('plan completed: 3 of 3 steps succeeded, 0 retries');
    expect(chainOf(stdout)).toHaveLength(8);
    expect(stdout).toMatch(/^verified +8 entries/m);
  });

  it('skip leaves the failed step and the steps that need it out: the tutorial’s 4-entry chain', async () => {
    const { code, stdout } = await runApp(['--strategy', 'skip']);
    expect(code).toBe(0);
    expect(stdout).toContain('failureStrategy skip: step 1 is left out');
    expect(stdout).toContain('data_extract not run: it needs step 1, which was skipped');
    expect(stdout).toContain('plan finished without steps 1, 2, 3: 0 of 3 steps succeeded');
    expect(chainOf(stdout)).toEqual([
      '1 org.agent.TaskPlan.v1',
      '2 ai.agent.Reasoning.v1',
      '3 org.agent.ToolInvocation.v1',
      '4 org.agent.ToolResult.v1',
    ]);
    expect(stdout).toMatch(/^verified +4 entries/m);
  });

  it('abort stops the plan at the first failure and exits with 1', async () => {
    const { code, stdout } = await runApp(['--strategy', 'abort']);
    expect(code).toBe(1);
    expect(stdout).toContain('failureStrategy abort: the plan is aborted');
    expect(stdout).toContain('plan aborted: step 1 (web_search) failed');
    expect(stdout).toMatch(/^verified +4 entries/m);
  });

  it('--proxy URL records everything in that proxy', async () => {
    const proxy = await proxyFor({ stypes: [APP_STYPES_DIRECTORY] });
    const { code, stdout } = await runApp(['--proxy', proxy.url]);
    expect(code).toBe(0);
    expect(stdout).toContain(`MPL proxy at ${proxy.url}`);
    const [planId, ...others] = await proxy.store.planIds();
    expect(others).toEqual([]);
    expect(stdout).toContain(`GET /provenance?planId=${planId}: 10 entries`);
    expect(await proxy.store.chain(planId as string)).toHaveLength(10);
  });

  it('--proxy URL without the app’s STypes says how to start it, in one line', async () => {
    const proxy = await proxyFor({ stypes: [] });
    const { code, stderr } = await runApp(['--proxy', proxy.url]);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `planner-executor: The MPL proxy at ${proxy.url} does not know org.report.Summary.v1: start it with \`mpl serve --stypes ${APP_STYPES_DIRECTORY}\`.`,
    ]);
  });

  it('plans with a real provider adapter (against a local scripted OpenAI server)', async () => {
    const server = await startScriptedOpenAIServer([
      { toolCalls: [{ id: 'call_1', name: SUBMIT_PLAN_TOOL, arguments: SCRIPTED_PLAN }] },
    ]);
    cleanups.push(() => server.close());
    const { code, stdout } = await runApp(
      ['--provider', 'openai', '--model', 'test-model', '--base-url', `${server.url}/v1`],
      { OPENAI_API_KEY: 'test-key' },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('openai test-model: one native tool call to submit_plan');
    expect(stdout).toMatch(/^verified +10 entries/m);
    const request = server.requests[0]?.body as { tools: { function: { name: string } }[] };
    expect(request.tools.map((tool) => tool.function.name)).toEqual([SUBMIT_PLAN_TOOL]);
  });

  it('a model’s plan that breaks the TaskPlan assertions is refused by the proxy: exit 1', async () => {
    const server = await startScriptedOpenAIServer([
      {
        toolCalls: [
          {
            name: SUBMIT_PLAN_TOOL,
            arguments: {
              goal: 'Research competitor pricing',
              steps: [{ stepId: 1, action: 'Search', tool: 'web_search', dependsOn: [7] }],
            },
          },
        ],
      },
    ]);
    cleanups.push(() => server.close());
    const { code, stdout } = await runApp(
      ['--provider', 'openai', '--model', 'test-model', '--base-url', `${server.url}/v1`],
      { OPENAI_API_KEY: 'test-key' },
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/✗ agent\.plan +org\.agent\.TaskPlan\.v1 +refused \[E-QOM-BREACH\]/);
    expect(stdout).not.toContain('received the plan');
    expect(stdout).toContain('the proxy refused the plan: nothing was run, nothing recorded');
  });

  it('a plan whose steps depend on each other in a cycle is rejected by the executor: exit 1', async () => {
    const server = await startScriptedOpenAIServer([
      {
        toolCalls: [
          {
            name: SUBMIT_PLAN_TOOL,
            arguments: {
              goal: 'Research competitor pricing',
              steps: [
                { stepId: 1, action: 'Search', tool: 'web_search', dependsOn: [2] },
                { stepId: 2, action: 'Extract', tool: 'data_extract', dependsOn: [1] },
              ],
            },
          },
        ],
      },
    ]);
    cleanups.push(() => server.close());
    const { code, stdout } = await runApp(
      ['--provider', 'openai', '--model', 'test-model', '--base-url', `${server.url}/v1`],
      { OPENAI_API_KEY: 'test-key' },
    );
    expect(code).toBe(1);
    expect(stdout).toContain('step 1 -> step 2 -> step 1');
    expect(stdout).toContain(
      'conclusion: Reject the plan: no step order satisfies its dependencies.',
    );
    expect(stdout).toContain('plan rejected');
    expect(stdout).toMatch(/^verified +2 entries/m); // the plan and the reasoning that rejected it
  });

  it('a missing API key is one line naming the variable, and no stack trace', async () => {
    const { code, stdout, stderr } = await runApp(['--provider', 'groq'], { GROQ_API_KEY: '' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'planner-executor: --provider groq needs an API key: set the GROQ_API_KEY environment variable.\n',
    );
  });

  it('colours only when asked or in a terminal', async () => {
    const { stdout } = await runApp(['--color', '--no-failure']);
    expect(stdout).toContain('\u001b[');
  });
});
