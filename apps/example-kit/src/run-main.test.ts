import { ProviderError } from '@mtpx/providers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CliError } from './cli-error';
import { runMain } from './run-main';

/** Runs `main` through runMain; resolves with what it wrote to stderr and the exit code. */
async function outcome(main: () => Promise<number>, modelFailure?: string) {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  await runMain('demo', main, modelFailure === undefined ? {} : { modelFailure });
  return { stderr, exitCode: process.exitCode };
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('runMain', () => {
  it('exits with what main resolves to, printing nothing', async () => {
    expect(await outcome(async () => 3)).toEqual({ stderr: '', exitCode: 3 });
  });

  it('prints a CliError as one line and exits with its code', async () => {
    const failed = await outcome(async () => {
      throw new CliError('Pass --name.');
    });
    expect(failed).toEqual({ stderr: 'demo: Pass --name.\n', exitCode: 2 });
  });

  it('prints a failed model call as one line, worded as the app asks', async () => {
    const error = new ProviderError({ code: 'api_error', provider: 'groq', message: 'groq: 500' });
    const failing = async () => {
      throw error;
    };
    expect(await outcome(failing)).toEqual({
      stderr: 'demo: the model call failed: groq: 500\n',
      exitCode: 1,
    });
    expect((await outcome(failing, 'the planner model failed')).stderr).toBe(
      'demo: the planner model failed: groq: 500\n',
    );
  });

  it('prints anything else with its stack', async () => {
    const failed = await outcome(async () => {
      throw new TypeError('boom');
    });
    expect(failed.stderr).toMatch(/^demo: unexpected failure\nTypeError: boom\n {4}at /);
    expect(failed.exitCode).toBe(1);
  });
});
