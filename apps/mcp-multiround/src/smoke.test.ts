import { once } from 'node:events';
import { join } from 'node:path';
import { type AppRun, runAppProcess, spawnAppProcess } from '@mtpx/example-kit/testing';
import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { BOOK_TABLE } from './scenario';

const appDirectory = join(import.meta.dirname, '..');
const booking = ['--name', 'Ada', '--date', '2026-12-24', '--yes'];
const booked = '{"booked":true,"name":"Ada","party":2,"date":"2026-12-24","reference":"R-QX2U23"}';

/** Runs the app as `pnpm --filter mcp-multiround start -- …` does and waits for it to exit. */
function runApp(args: string[], env: NodeJS.ProcessEnv = {}): Promise<AppRun> {
  return runAppProcess(appDirectory, 'src/main.ts', args, { env });
}

/** Starts the standalone server over HTTP on a free port; resolves with its URL once it says it. */
async function startServerProcess(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawnAppProcess(appDirectory, 'src/server-main.ts', ['--http', '--port', '0']);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = output.match(/at (http:\S+)/);
      if (found?.[1]) resolve(found[1]);
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`the server exited (${code}): ${output}`)));
  });
  return {
    url,
    stop: async () => {
      const closed = once(child, 'close');
      child.kill('SIGTERM');
      await closed;
    },
  };
}

describe.concurrent('mcp-multiround (smoke)', () => {
  for (const transport of ['http', 'stdio'] as const) {
    it(`era 2026 over ${transport}: input_required twice, retried with inputResponses, then booked`, async () => {
      const { code, stdout, stderr } = await runApp([
        ...booking,
        '--era',
        '2026',
        '--transport',
        transport,
      ]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain('MCP 2026-07-28');
      expect(stdout).toContain('← input_required: date (elicitation/create) + signed requestState');
      expect(stdout).toContain('date = 2026-12-24 (from --date)');
      expect(stdout).toContain(
        '→ tools/call book_table again, with inputResponses {date} and the requestState echoed',
      );
      expect(stdout).toContain('← input_required: confirm (elicitation/create)');
      expect(stdout).toContain('confirm = yes (from --yes)');
      expect(stdout).toContain(`✓ ${BOOK_TABLE} → ${booked}`);
      expect(stdout).toContain(
        'multi-round call: 3 tools/call requests: 2 answered input_required, then the result',
      );
      expect(stdout).toMatch(
        /^answer +Booked: a table for 2 under Ada on 2026-12-24 \(reference R-QX2U23\)\.$/m,
      );
      expect(stdout).not.toContain('\u001b[');
    });

    it(`era 2025 over ${transport}: the same tool asks inside one call`, async () => {
      const { code, stdout, stderr } = await runApp([
        ...booking,
        '--era',
        '2025',
        '--transport',
        transport,
      ]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(stdout).toContain('MCP 2025 (initialize, a session)');
      expect(stdout.match(/← elicitation\/create: the server asks, inside the call/g)).toHaveLength(
        2,
      );
      expect(stdout.match(/→ answer to elicitation\/create: accept/g)).toHaveLength(2);
      expect(stdout).not.toContain('input_required');
      expect(stdout).toContain(`✓ ${BOOK_TABLE} → ${booked}`);
      expect(stdout).toContain(
        'multi-round call: one tools/call request, inside which the server asked 2 questions',
      );
      expect(stdout).toMatch(/^answer +Booked: a table for 2 under Ada on 2026-12-24/m);
    });
  }

  it('--no declines the confirmation: nothing is booked, and the agent says so', async () => {
    const { code, stdout } = await runApp(['--name', 'Ada', '--date', '2026-12-24', '--no']);
    expect(code).toBe(0);
    expect(stdout).toContain('confirm = no (from --no)');
    expect(stdout).toContain('"booked":false');
    expect(stdout).toMatch(/^answer +No table was booked \(not confirmed\)\.$/m);
  });

  it('--server URL uses a running server (the standalone entry, over HTTP)', async ({
    onTestFinished,
  }) => {
    const server = await startServerProcess();
    onTestFinished(() => server.stop());
    const { code, stdout } = await runApp([...booking, '--server', server.url]);
    expect(code).toBe(0);
    expect(stdout).toContain(`MCP server over Streamable HTTP at ${server.url}`);
    expect(stdout).toContain(`✓ ${BOOK_TABLE} → ${booked}`);
  });

  it('a real provider adapter drives the agent (against a local scripted OpenAI server)', async ({
    onTestFinished,
  }) => {
    const model = await startScriptedOpenAIServer([
      { toolCalls: [{ name: BOOK_TABLE, arguments: { name: 'Ada', party: 4 } }] },
      { text: 'Booked for 4 on 2026-12-24.' },
    ]);
    onTestFinished(() => model.close());
    const { code, stdout } = await runApp(
      [
        ...booking,
        '--provider',
        'openai',
        '--model',
        'test-model',
        '--base-url',
        `${model.url}/v1`,
      ],
      { OPENAI_API_KEY: 'test-key' },
    );
    expect(code).toBe(0);
    expect(stdout).toContain('"party":4');
    expect(stdout).toMatch(/^answer +Booked for 4 on 2026-12-24\.$/m);
  });

  it('without a terminal and without --name: one line saying what to pass', async () => {
    const { code, stdout, stderr } = await runApp(['--date', '2026-12-24', '--yes']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'mcp-multiround: Pass --name (and --date, --yes to answer the server): stdin is not a terminal.\n',
    );
  });

  it('rejects a bad era or date before connecting', async () => {
    const era = await runApp([...booking, '--era', '2024']);
    expect(era.code).toBe(2);
    expect(era.stderr).toContain('--era must be 2026, 2025 or auto');
    const date = await runApp(['--name', 'Ada', '--date', '2026-02-30']);
    expect(date.code).toBe(2);
    expect(date.stderr).toContain('--date must be a date written YYYY-MM-DD');
  });
});
