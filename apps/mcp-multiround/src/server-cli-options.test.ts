import { CliError } from '@mtpx/example-kit';
import { describe, expect, it } from 'vitest';
import { parseServerCliOptions } from './server-cli-options';

function usageError(argv: string[]): string {
  try {
    parseServerCliOptions(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
}

describe('the standalone server’s command line', () => {
  it('serves stdio by default, and HTTP on loopback port 3000 with --http', () => {
    expect(parseServerCliOptions([])).toEqual({
      transport: 'stdio',
      port: 3000,
      host: '127.0.0.1',
      help: false,
    });
    expect(parseServerCliOptions(['--', '--http', '--port', '0'])).toMatchObject({
      transport: 'http',
      port: 0,
      host: '127.0.0.1',
    });
    expect(parseServerCliOptions(['-h']).help).toBe(true);
  });

  it('answers a wrong flag or value with one line, never a stack trace', () => {
    expect(usageError(['--prot', '1'])).toMatch(/--prot.*--port/);
    expect(usageError(['--http', '--port', 'abc'])).toBe(
      '--port must be a whole number from 0 to 65535, not "abc".',
    );
    expect(usageError(['--http', '--port', '70000'])).toMatch(/from 0 to 65535/);
    expect(usageError(['--http', '--port', '-1'])).toMatch(/--port/);
    expect(usageError(['--http', '--stdio'])).toBe('Pass --http or --stdio, not both.');
    expect(usageError(['--port', '3001'])).toMatch(/--port and --host are for --http/);
  });
});
