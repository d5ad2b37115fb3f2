import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, InMemoryRunJournal } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import { scriptedProvider } from '@mtpx/providers/testing';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordRuns } from './index';

// The Inspector in a real browser: Debian's chromium driven by playwright-core.
const CHROMIUM = '/usr/bin/chromium';
const packageDir = join(import.meta.dirname, '..');
const artifacts = join(packageDir, 'test-results');

let dataDir: string;
let profileDir: string;
let server: ChildProcess;
let base: string;
let browser: BrowserContext;
let page: Page;

/** Starts the built bin, as a user would, and reads its URL from its first line. */
function startServer(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [join(packageDir, 'dist', 'cli.js'), 'serve', '--data', dir, '--port', '0'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] as string });
    });
    child.once('exit', (code) =>
      reject(new Error(`mtpx-inspector serve exited (${code}): ${err}`)),
    );
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `The browser test needs Debian's chromium at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\` (or \`bash .ci/browser.sh\`).`,
    );
  dataDir = await mkdtemp(join(tmpdir(), 'mtpx-inspector-browser-'));
  profileDir = await mkdtemp(join(tmpdir(), 'mtpx-inspector-chromium-'));
  await mkdir(join(dataDir, 'runs'), { recursive: true });
  // A record of `pnpm demo -- --record DIR` (see __fixtures__/SOURCES.md).
  await copyFile(
    join(import.meta.dirname, '__fixtures__', 'demo-run.jsonl'),
    join(dataDir, 'runs', 'run_demo.jsonl'),
  );
  await mkdir(artifacts, { recursive: true });
  const started = await startServer(dataDir);
  server = started.child;
  base = started.url;
  browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1280, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  // A starved machine (a second suite beside this one) renders slowly: each step may wait
  // up to 100 s, within the tests' 120 s; nothing waits on these limits otherwise.
  page.setDefaultTimeout(100_000);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.kill();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (profileDir) await rm(profileDir, { recursive: true, force: true });
});

describe('the Inspector in chromium', { timeout: 120_000 }, () => {
  it('the demo run: six calls of one response, three started while the model was writing, $ref edges, the answer 31', async () => {
    await page.goto(`${base}/`);
    await page.locator('tr[data-run="run_demo"]').waitFor();
    await page.screenshot({ path: join(artifacts, 'inspector-runs.png'), fullPage: true });
    await page.locator('tr[data-run="run_demo"] a').click();
    await page.locator('[data-answer]').waitFor();
    expect(page.url()).toBe(`${base}/runs/run_demo`);

    const round = page.locator('section.round[data-round="1"]');
    const rows = round.locator('g.call-row');
    expect(
      await rows.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-row'))),
    ).toEqual(['call_1', 'call_2', 'call_3', 'call_4', 'call_5', 'call_6']);
    expect(await round.locator('[data-facts]').textContent()).toContain(
      '6 calls from one response · 3 started while the model was writing',
    );
    expect(await round.locator('[data-during-stream]').count()).toBe(3);
    expect(
      await round
        .locator('path.ref-edge')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-edge'))),
    ).toEqual(['call_1->call_2', 'call_2->call_3', 'call_3->call_4', 'call_5->call_6']);
    expect(await page.locator('[data-answer]').textContent()).toContain(
      '15 + (4 × (18 − 6)) / 3 = 31.',
    );
    await page.screenshot({ path: join(artifacts, 'inspector-run.png'), fullPage: true });

    // Clicking a call's bar shows its details: arguments as written and as resolved.
    await round.locator('g.call-row[data-row="call_4"] rect.segment-running').click();
    const details = page.locator('[data-call-details="call_4"]');
    await details.waitFor();
    expect(await details.textContent()).toContain('"$ref": "call_3"');
    expect(await details.locator('.field').nth(1).textContent()).toContain('"b": 16');
    expect(await details.locator('.field').nth(2).textContent()).toContain('31');
  });

  it('keyboard: / filters, j and k move, Enter opens, Escape goes back', async () => {
    await page.goto(`${base}/`);
    await page.locator('tr[data-run="run_demo"]').waitFor();
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-filter'))).toBe(
      true,
    );
    await page.keyboard.type('no such run');
    await page.locator('td.empty').waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('backup');
    await page.locator('tr[data-run="run_demo"]').waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    const focusedRun = () =>
      page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-run'));
    expect(await focusedRun()).toBe('run_demo');
    // The list refreshes every 2 s and rebuilds its rows: a new run shows up, and the focused
    // row keeps the focus (before, a refresh between j and Enter lost it, and Enter did nothing).
    const demo = await readFile(
      join(import.meta.dirname, '__fixtures__', 'demo-run.jsonl'),
      'utf8',
    );
    await writeFile(
      join(dataDir, 'runs', 'run_again.jsonl'),
      demo.replaceAll('"run_demo"', '"run_again"'),
    );
    await page.locator('tr[data-run="run_again"]').waitFor();
    expect(await focusedRun()).toBe('run_demo');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain(
      'What is 15 + (4 × (18 − 6)) / 3?',
    );
    await page.keyboard.press('Enter');
    await page.locator('[data-answer]').waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-call'))).toBe(
      'call_2',
    );
    await page.keyboard.press('Enter');
    await page.locator('[data-call-details="call_2"]').waitFor();
    await page.keyboard.press('k');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-call'))).toBe(
      'call_1',
    );
    await page.keyboard.press('Escape');
    await page.locator('tr[data-run="run_demo"]').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('a run waiting for approval: listed as waiting, its pending calls with what they would do and what waits on them', async () => {
    const recorder = recordRuns({ dir: dataDir });
    const tool = (name: string, risk: 'read_only' | 'write' | 'destructive') =>
      defineTool({
        name,
        description: name,
        risk_level: risk,
        input_schema: { type: 'object', properties: { text: { type: 'string' } } },
        execute: (args: { text?: string }) => `${name}(${args.text ?? ''})`,
      });
    const agent = createAgent({
      provider: scriptedProvider([
        {
          toolCalls: [
            { id: 'call_read', name: 'doc.read', arguments: { text: 'draft' } },
            { id: 'call_write', name: 'doc.write', arguments: { text: { $ref: 'call_read' } } },
            { id: 'call_notify', name: 'doc.notify', arguments: { text: { $ref: 'call_write' } } },
            { id: 'call_delete', name: 'doc.delete', arguments: { text: 'old' } },
          ],
        },
      ]),
      tools: [
        tool('doc.read', 'read_only'),
        tool('doc.write', 'write'),
        tool('doc.notify', 'read_only'),
        tool('doc.delete', 'destructive'),
      ],
      policy: { defaults: { write: 'ask' } },
      journal: new InMemoryRunJournal(),
      onEvent: recorder,
    });
    const output = await agent.run('Tidy the documents.', { runId: 'run_waiting' });
    expect(output.stopReason).toBe('awaiting_approval');
    await recorder.close();

    await page.goto(`${base}/`);
    const row = page.locator('tr[data-run="run_waiting"]');
    await row.waitFor();
    expect(await row.locator('[data-waiting]').textContent()).toBe('waiting for approval (2)');
    await page.locator('select[aria-label="Status"]').selectOption('waiting');
    expect(
      await page
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-run'))),
    ).toEqual(['run_waiting']);
    await row.locator('a').click();
    const section = page.locator('[data-pending-approvals]');
    await section.waitFor();
    expect(await page.locator('[data-run-status]').textContent()).toBe('waiting for approval');
    expect(
      await section
        .locator('[data-pending-approval]')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-pending-approval'))),
    ).toEqual(expect.arrayContaining(['call_write', 'call_delete']));
    expect(await section.locator('[data-pending-approval]').count()).toBe(2);
    const write = section.locator('[data-pending-approval="call_write"]');
    expect(await write.textContent()).toContain('doc.write');
    expect(await write.locator('[data-pending-arguments]').textContent()).toContain(
      '"text": "doc.read(draft)"',
    );
    expect(await write.textContent()).toContain('$call_read');
    expect(await write.locator('[data-pending-waiting]').textContent()).toContain('call_notify');
    await page.screenshot({ path: join(artifacts, 'inspector-waiting.png'), fullPage: true });
  });

  it('a run in progress updates live', async () => {
    const recorder = recordRuns({ dir: dataDir });
    const run = { runId: 'run_live' };
    const call = {
      id: 'call_1',
      name: 'calculator.add',
      arguments: { a: 1, b: 2 },
      depends_on: [],
    };
    recorder({
      ...run,
      type: 'run-started',
      at: 0,
      input: 'What is 1 + 2?',
      provider: 'scripted',
      model: 'live-script',
      streaming: true,
      eagerDispatch: true,
    });
    recorder({
      ...run,
      type: 'round-started',
      at: 1,
      round: 1,
      messageCount: 2,
      tools: ['calculator.add'],
    });
    recorder({
      ...run,
      type: 'tool-call-ready',
      at: 40,
      round: 1,
      index: 0,
      toolCall: call,
      call,
      aliases: {},
      refused: false,
    });
    recorder({
      ...run,
      type: 'call-started',
      at: 41,
      round: 1,
      callId: 'call_1',
      toolName: 'calculator.add',
    });
    await recorder.flush();

    await page.goto(`${base}/runs/run_live`);
    await page.locator('[data-run-status="running"]').waitFor();
    await page.locator('g.call-row[data-row="call_1"][data-status="running"]').waitFor();
    await page.screenshot({ path: join(artifacts, 'inspector-live.png'), fullPage: true });

    const result = {
      call_id: 'call_1',
      tool_name: 'calculator.add',
      output: 3,
      success: true,
      cached: false,
      skipped: false,
      created_at: new Date().toISOString(),
    };
    recorder({
      ...run,
      type: 'call-finished',
      at: 60,
      round: 1,
      callId: 'call_1',
      toolName: 'calculator.add',
      durationMs: 19,
      success: true,
      cached: false,
      approval: 'allow',
      result,
    });
    recorder({
      ...run,
      type: 'round-finished',
      at: 61,
      round: 1,
      message: { role: 'assistant', content: null, tool_calls: [call] },
      finishReason: 'tool_calls',
      modelMs: 50,
      durationMs: 60,
      toolResults: [result],
    });
    recorder({
      ...run,
      type: 'round-started',
      at: 62,
      round: 2,
      messageCount: 4,
      tools: ['calculator.add'],
    });
    recorder({
      ...run,
      type: 'round-finished',
      at: 90,
      round: 2,
      message: { role: 'assistant', content: '1 + 2 = 3.' },
      finishReason: 'stop',
      modelMs: 28,
      durationMs: 28,
      toolResults: [],
    });
    recorder({
      ...run,
      type: 'run-finished',
      at: 91,
      output: {
        run_id: 'run_live',
        final_text: '1 + 2 = 3.',
        messages: [],
        tool_results: [result],
        rounds: 2,
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        stop_reason: 'final',
      },
      durationMs: 91,
    });
    await recorder.close();

    await page.locator('[data-run-status="finished"]').waitFor();
    expect(await page.locator('[data-answer]').textContent()).toContain('1 + 2 = 3.');
    expect(await page.locator('g.call-row[data-row="call_1"]').getAttribute('data-status')).toBe(
      'ok',
    );
  });

  it('two runs side by side on one axis', async () => {
    await page.goto(`${base}/compare?a=run_demo&b=run_live`);
    await page.locator('[data-compare="run_live"] section.round').first().waitFor();
    expect(await page.locator('[data-compare]').count()).toBe(2);
    await page.screenshot({ path: join(artifacts, 'inspector-compare.png'), fullPage: true });
  });
});
