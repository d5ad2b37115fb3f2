import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppRun, runAppProcess } from '@mtpx/example-kit/testing';
import { type RunningProxy, startProxy } from '@mtpx/mpl-proxy';
import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_STYPES_DIRECTORY } from './app';
import { SUBMIT_PLAN_TOOL } from './planner';
import { TUTORIAL_PLANS } from './tutorial-plans';

const appDirectory = join(import.meta.dirname, '..');

/** Runs the app as a user would (`tsx src/main.ts …`) and waits for it to exit. */
function runApp(args: string[], env: NodeJS.ProcessEnv = {}): Promise<AppRun> {
  return runAppProcess(appDirectory, 'src/main.ts', args, { env });
}

/** One row of the printed chain (hashes as printed: shortened). */
interface PrintedEntry {
  entry: string;
  semHash: string;
  parentHash: string;
}

/** The printed chain: `seq stype` of each entry, and its hashes. */
function chainOf(stdout: string): PrintedEntry[] {
  return [...stdout.matchAll(/^ {11}(\d+) +(\S+) +(sha256:\S+) +(root|sha256:\S+) +pass$/gm)].map(
    ([, seq, stype, semHash, parentHash]) => ({
      entry: `${seq} ${stype}`,
      semHash: semHash as string,
      parentHash: parentHash as string,
    }),
  );
}

/** Every entry's parent is the entry before it; the first is the root. */
function expectLinked(chain: readonly { semHash: string; parentHash: string }[]): void {
  expect(chain.map((entry) => entry.parentHash)).toEqual([
    'root',
    ...chain.slice(0, -1).map((entry) => entry.semHash),
  ]);
}

/** The index of the first line matching each pattern (-1 when none does). */
function lineIndexes(stdout: string, patterns: readonly RegExp[]): number[] {
  const lines = stdout.split('\n');
  return patterns.map((pattern) => lines.findIndex((line) => pattern.test(line)));
}

/** The tutorial's chain: the plan, the reasoning, then an invocation and its result per step. */
function tutorialChain(steps: number): string[] {
  const entries = ['1 org.agent.TaskPlan.v1', '2 ai.agent.Reasoning.v1'];
  for (let step = 0; step < steps; step += 1)
    entries.push(
      `${3 + 2 * step} org.agent.ToolInvocation.v1`,
      `${4 + 2 * step} org.agent.ToolResult.v1`,
    );
  return entries;
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
  it('runs the tutorial offline: its 4-entry chain, a failure retried within the one invocation, verified', async () => {
    const { code, stdout, stderr } = await runApp([]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('scripted model (offline): one native tool call to submit_plan');
    expect(stdout).toContain('received the plan from its session: "Find competitor pricing data"');
    expect(stdout).toContain('conclusion: Execute step 1. Use retry strategy on failure');
    // One invocation; inside it the failed attempt and the retry, shown as they happen.
    const order = lineIndexes(stdout, [
      /✓ agent\.invoke_tool +org\.agent\.ToolInvocation\.v1 .* args valid against eval\.rag\.RAGQuery\.v1$/,
      /✗ web_search attempt 1 of 3 failed: web_search: the search backend answered 503/,
      /↻ failureStrategy retry: attempt 2 of 3 after \d+ ms, within the same invocation$/,
      /✓ web_search succeeded on attempt 2 in \d+ ms: Found 3 relevant pages/,
      /✓ agent\.tool_result +org\.agent\.ToolResult\.v1 .* status success · durationMs \d+ covers 2 attempts$/,
    ]);
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((left, right) => left - right));
    expect(stdout.match(/agent\.invoke_tool/g)).toHaveLength(1);
    expect(stdout).toContain('plan completed: 1 of 1 step succeeded, 1 retry');
    const chain = chainOf(stdout);
    expect(chain.map((entry) => entry.entry)).toEqual([
      '1 org.agent.TaskPlan.v1',
      '2 ai.agent.Reasoning.v1',
      '3 org.agent.ToolInvocation.v1',
      '4 org.agent.ToolResult.v1',
    ]);
    expectLinked(chain);
    expect(stdout).toMatch(/^verified +4 entries/m);
    expect(stdout).not.toContain('\u001b['); // piped: no colour
  });

  it('--plan research runs the tutorial’s three steps: 2 + 2 × 3 entries, the retry within step 1’s invocation', async () => {
    const { code, stdout } = await runApp(['--plan', 'research']);
    expect(code).toBe(0);
    expect(stdout).toContain('Execute steps sequentially: 1 -> 2 -> 3.');
    expect(stdout).toContain('failureStrategy retry: attempt 2 of 3 after');
    expect(stdout).toContain('args valid against org.report.Summary.v1');
    expect(stdout).toContain('plan completed: 3 of 3 steps succeeded, 1 retry');
    expect(stdout).toContain('from $29/month (Beta Inc Starter) to $199/month');
    const chain = chainOf(stdout);
    expect(chain.map((entry) => entry.entry)).toEqual(tutorialChain(3));
    expectLinked(chain);
    expect(stdout).toMatch(/^verified +8 entries/m);
  });

  it('without the failure, nothing is retried and the chain is the same four entries', async () => {
    const { code, stdout } = await runApp(['--', '--no-failure']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('failureStrategy retry');
    expect(stdout).toContain('plan completed: 1 of 1 step succeeded, 0 retries');
    expect(chainOf(stdout).map((entry) => entry.entry)).toEqual(tutorialChain(1));
    expect(stdout).toMatch(/^verified +4 entries/m);
  });

  it('skip runs the tool once and leaves the failed step and the steps that need it out', async () => {
    const { code, stdout } = await runApp(['--plan', 'research', '--strategy', 'skip']);
    expect(code).toBe(0);
    expect(stdout).not.toContain('attempt 2');
    expect(stdout).toMatch(/agent\.tool_result +org\.agent\.ToolResult\.v1 .* status error$/m);
    expect(stdout).toContain('failureStrategy skip: step 1 is left out');
    expect(stdout).toContain('data_extract not run: it needs step 1, which was skipped');
    expect(stdout).toContain('plan finished without steps 1, 2, 3: 0 of 3 steps succeeded');
    expect(chainOf(stdout).map((entry) => entry.entry)).toEqual(tutorialChain(1));
    expect(stdout).toMatch(/^verified +4 entries/m);
  });

  it('abort runs the tool once, stops the plan at the failure and exits with 1', async () => {
    const { code, stdout } = await runApp(['--strategy', 'abort']);
    expect(code).toBe(1);
    expect(stdout).not.toContain('attempt 2');
    expect(stdout).toContain('failureStrategy abort: the plan is aborted');
    expect(stdout).toContain('plan aborted: step 1 (web_search) failed');
    expect(stdout).toMatch(/^verified +4 entries/m);
  });

  it('--proxy URL records everything in that proxy: the tutorial’s four entries, linked', async () => {
    const proxy = await proxyFor({ stypes: [APP_STYPES_DIRECTORY] });
    const { code, stdout } = await runApp(['--proxy', proxy.url]);
    expect(code).toBe(0);
    expect(stdout).toContain(`MPL proxy at ${proxy.url}`);
    const [planId, ...others] = await proxy.store.planIds();
    expect(others).toEqual([]);
    expect(stdout).toContain(`GET /provenance?planId=${planId}: 4 entries`);
    const chain = await proxy.store.chain(planId as string);
    expect(chain.map((entry) => `${entry.seq} ${entry.stype}`)).toEqual(tutorialChain(1));
    expectLinked(
      chain.map((entry) => ({ semHash: entry.sem_hash, parentHash: entry.parent_hash ?? 'root' })),
    );
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
      { toolCalls: [{ id: 'call_1', name: SUBMIT_PLAN_TOOL, arguments: TUTORIAL_PLANS.search }] },
    ]);
    cleanups.push(() => server.close());
    const { code, stdout } = await runApp(
      // The request body is read below in the Chat Completions shape.
      [
        '--provider',
        'openai',
        '--api',
        'chat',
        '--model',
        'test-model',
        '--base-url',
        `${server.url}/v1`,
      ],
      { OPENAI_API_KEY: 'test-key' },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('openai test-model: one native tool call to submit_plan');
    expect(stdout).toMatch(/^verified +4 entries/m);
    const request = server.requests[0]?.body as {
      messages: { role: string; content: string }[];
      tools: { function: { name: string } }[];
    };
    expect(request.tools.map((tool) => tool.function.name)).toEqual([SUBMIT_PLAN_TOOL]);
    expect(request.messages.at(-1)).toEqual({
      role: 'user',
      content: TUTORIAL_PLANS.search.goal,
    });
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
    expect(stdout).toMatch(
      /✗ agent\.plan +org\.agent\.TaskPlan\.v1 +refused \[E-ASSERTION-FAILED\]/,
    );
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
