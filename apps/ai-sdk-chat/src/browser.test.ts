import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChatServer, serveChat } from './server/chat-server';
import { OFFLINE_QUESTION, offlineModels } from './server/models';
import { exampleTools } from './tools/example-tools';

// The example page in a real browser: Debian's chromium driven by playwright-core (never a
// downloaded browser). useChat renders an offline run of the app.
const CHROMIUM = '/usr/bin/chromium';
const appDir = join(import.meta.dirname, '..');
const artifacts = join(appDir, 'test-results');

let pageDir: string;
let profileDir: string;
let server: ChatServer;
let browser: BrowserContext;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser test needs Debian's chromium at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\` (or \`bash .ci/browser.sh\`).`,
    );
  }
  pageDir = await mkdtemp(join(tmpdir(), 'ai-sdk-chat-page-'));
  profileDir = await mkdtemp(join(tmpdir(), 'ai-sdk-chat-chromium-'));
  await mkdir(artifacts, { recursive: true });
  await build({
    configFile: join(appDir, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: pageDir, emptyOutDir: true },
  });
  server = await serveChat({
    models: offlineModels(),
    config: { label: 'offline (scripted model)', question: OFFLINE_QUESTION },
    staticDir: pageDir,
  });
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
    viewport: { width: 1100, height: 900 },
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  // A starved machine (CI's other runtimes, or a second suite, beside this one) loads and
  // renders slowly: each step, navigation included, may wait up to 100 s within the test's
  // 120 s (playwright's default is 30 s). Nothing waits on these limits otherwise.
  page.setDefaultTimeout(100_000);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await rm(pageDir, { recursive: true, force: true });
  await rm(profileDir, { recursive: true, force: true });
});

describe('the example page (useChat) in Chromium', () => {
  it('renders a run: every tool call with its input and output, and the answer', async () => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(server.url);
    await page.getByTestId('suggested').waitFor();
    await page.getByTestId('suggested').click();

    // While the run streams: a tool call shown before the answer exists.
    await page.locator('[data-testid="tool"]').first().waitFor();
    await page.screenshot({ path: join(artifacts, 'ai-sdk-chat-streaming.png'), fullPage: true });

    const answer = page.getByTestId('assistant-text');
    await answer.waitFor({ timeout: 90_000 });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="status"]')?.textContent === 'ready',
      undefined,
      { timeout: 90_000 },
    );
    await page.screenshot({ path: join(artifacts, 'ai-sdk-chat-answer.png'), fullPage: true });

    const tools = page.locator('[data-testid="tool"]');
    expect(await tools.count()).toBe(10);
    const names = await tools.evaluateAll((cards) =>
      cards.map((card) => card.getAttribute('data-tool')),
    );
    expect([...names].sort()).toEqual(Object.keys(exampleTools).sort());
    for (let index = 0; index < 10; index += 1) {
      const card = tools.nth(index);
      expect(await card.getAttribute('data-state')).toBe('output-available');
      expect(await card.getByTestId('tool-input').textContent()).not.toBe('');
      expect(await card.getByTestId('tool-output').textContent()).not.toBe('');
    }
    const note = page.locator('[data-tool="saveNote"]');
    // The $ref shown as what it points at, and the edge as a badge.
    expect(await note.getByTestId('tool-input').textContent()).toContain(
      'document1.pdf - Contains \\"quarterly report\\" on page 3',
    );
    expect(await note.getByTestId('ref').textContent()).toContain(
      'input from call_search_1/results/0',
    );
    expect(
      await page.locator('[data-tool="getInventory"] [data-testid="tool-output"]').textContent(),
    ).toContain('"availableUnits": 42');
    expect(await answer.textContent()).toContain(
      'P-100 has 42 units available against 31 requested',
    );
    expect(await page.getByTestId('step').count()).toBe(2);
    expect(problems.join('\n')).toBe('');
  });
});
