import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quotedTable, tableEnd, tableStart, withTable } from './readme-table';
import type { BenchResults } from './results';
import { renderFooter, renderTable } from './table';

const repositoryRoot = join(import.meta.dirname, '..', '..', '..', '..');

describe('withTable', () => {
  it('replaces what is between the markers and keeps the rest', () => {
    const readme = `# Title\n\n${tableStart}\nold\n${tableEnd}\n\nMore.\n`;
    const updated = withTable(readme, '| new |');
    expect(updated).toBe(`# Title\n\n${tableStart}\n| new |\n${tableEnd}\n\nMore.\n`);
    expect(quotedTable(updated)).toBe('| new |');
  });

  it('refuses a README without the markers', () => {
    expect(() => withTable('# Title\n', 'x')).toThrow(/no/);
  });
});

describe('the root README', () => {
  it('quotes the table of the committed full run, number for number', async () => {
    const results = JSON.parse(
      await readFile(join(repositoryRoot, 'apps', 'bench', 'results.json'), 'utf8'),
    ) as BenchResults;
    const readme = await readFile(join(repositoryRoot, 'README.md'), 'utf8');
    expect(results.mode).toBe('full');
    expect(quotedTable(readme)).toBe(`${renderTable(results)}\n\n${renderFooter(results)}`);
  });
});
