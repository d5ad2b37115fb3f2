import { CliError } from '@mtpx/example-kit';
import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './cli-options';

describe('the command line', () => {
  it('defaults to the one-step search plan, failing web_search once, with the plan’s own strategy', () => {
    expect(parseCliOptions([], {})).toEqual({
      help: false,
      plan: 'search',
      failOnce: 'web_search',
    });
  });

  it('reads --plan, --strategy and --no-failure (after the `--` pnpm may pass)', () => {
    expect(
      parseCliOptions(['--', '--plan', 'research', '--strategy', 'skip', '--no-failure'], {}),
    ).toEqual({ help: false, plan: 'research', strategy: 'skip' });
  });

  it('refuses an unknown plan or strategy with a usage error naming the choices', () => {
    const unknownPlan = () => parseCliOptions(['--plan', 'everything'], {});
    expect(unknownPlan).toThrow(CliError);
    expect(unknownPlan).toThrow('--plan must be search or research, not "everything".');
    expect(() => parseCliOptions(['--strategy', 'pray'], {})).toThrow(
      '--strategy must be abort, skip or retry, not "pray".',
    );
  });
});
