import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './cli-options';

describe('parseCliOptions', () => {
  it('runs every row into results.json by default', () => {
    expect(parseCliOptions([])).toEqual({
      quick: false,
      out: 'results.json',
      rows: [1, 2, 3, 4, 5, 6, 7, 8, 9],
      help: false,
    });
  });

  it('keeps quick and partial runs out of the committed results', () => {
    expect(parseCliOptions(['--quick']).out).toBe('results.local.json');
    expect(parseCliOptions(['--rows', '5,1,5'])).toMatchObject({
      out: 'results.local.json',
      rows: [1, 5],
    });
    expect(parseCliOptions(['--quick', '--out', '/tmp/r.json']).out).toBe('/tmp/r.json');
  });

  it('refuses rows that do not exist and unknown options', () => {
    expect(() => parseCliOptions(['--rows', '10'])).toThrow(/1 to 9/);
    expect(() => parseCliOptions(['--fast'])).toThrow();
  });
});
