import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error';

describe('CliError', () => {
  it('is a usage error (exit code 2) unless told otherwise, keeping its cause', () => {
    const cause = new Error('refused');
    expect(new CliError('Pass --name.').exitCode).toBe(2);
    const error = new CliError('The proxy is unreachable.', { exitCode: 1, cause });
    expect([error.name, error.exitCode, error.cause]).toEqual(['CliError', 1, cause]);
  });
});
