import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error';
import { COMMON_FLAGS, colorFlag, httpUrlFlag, parseFlags } from './cli-flags';

describe('parseFlags', () => {
  it('parses strictly, after the `--` pnpm may pass', () => {
    const { values, positionals } = parseFlags(['--', '--name', 'Ada', '-h', 'rest'], {
      allowPositionals: true,
      options: { name: { type: 'string' }, ...COMMON_FLAGS },
    });
    expect(values).toEqual({ name: 'Ada', help: true });
    expect(positionals).toEqual(['rest']);
  });

  it('turns an unknown flag into a usage error pointing at --help', () => {
    const parse = () => parseFlags(['--nope'], { options: COMMON_FLAGS });
    expect(parse).toThrow(CliError);
    expect(parse).toThrow('Unknown flag --nope (see --help for the flags this app takes).');
  });

  it("names the flag a typo was meant to be, without Node's advice about `--`", () => {
    const parse = () =>
      parseFlags(['--providr', 'groq'], {
        options: { provider: { type: 'string' }, ...COMMON_FLAGS },
      });
    expect(parse).toThrow('Unknown flag --providr: did you mean --provider? (see --help)');
  });
});

describe('colorFlag', () => {
  it('is undefined without a flag; --no-color wins over --color', () => {
    expect(colorFlag({})).toBeUndefined();
    expect(colorFlag({ color: true })).toBe(true);
    expect(colorFlag({ 'no-color': true })).toBe(false);
    expect(colorFlag({ color: true, 'no-color': true })).toBe(false);
  });
});

describe('httpUrlFlag', () => {
  it('returns an http(s) URL as written, and refuses anything else with a usage error', () => {
    expect(httpUrlFlag('--server', 'http://127.0.0.1:3000/mcp/')).toBe(
      'http://127.0.0.1:3000/mcp/',
    );
    expect(() => httpUrlFlag('--server', 'ftp://example.com')).toThrow(
      '--server must be an http(s) URL, not "ftp://example.com".',
    );
    expect(() => httpUrlFlag('--base-url', 'localhost:1234')).toThrow(CliError);
  });
});
