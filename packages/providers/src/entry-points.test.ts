import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const sourceDirectory = import.meta.dirname;

/** Every bare package a module reaches through its static imports, following relative ones. */
function reachablePackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
      const specifier = match[1] ?? '';
      if (specifier.startsWith('.')) visit(`${resolve(dirname(file), specifier)}.ts`);
      else
        packages.add(
          specifier.startsWith('node:')
            ? specifier
            : specifier
                .split('/')
                .slice(0, specifier.startsWith('@') ? 2 : 1)
                .join('/'),
        );
    }
  };
  visit(join(sourceDirectory, entry));
  return packages;
}

describe('entry points', () => {
  it('loads no SDK from the main and testing entries', () => {
    for (const entry of ['index.ts', 'testing.ts']) {
      const reached = reachablePackages(entry);
      expect(reached.has('openai'), entry).toBe(false);
      expect(reached.has('@anthropic-ai/sdk'), entry).toBe(false);
    }
  });

  it('reaches the adapters from the main entry only through import() of their entries', () => {
    const source = readFileSync(join(sourceDirectory, 'create-provider.ts'), 'utf8');
    const dynamic = [...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((match) => match[1]);
    expect(dynamic.sort()).toEqual(['./anthropic', './openai']);
    expect(reachablePackages('create-provider.ts')).not.toContain('openai');
    expect(reachablePackages('create-provider.ts')).not.toContain('@anthropic-ai/sdk');
  });

  it('loads only its own SDK from each adapter entry', () => {
    const openai = reachablePackages('openai.ts');
    expect(openai.has('openai')).toBe(true);
    expect(openai.has('@anthropic-ai/sdk')).toBe(false);
    const anthropic = reachablePackages('anthropic.ts');
    expect(anthropic.has('@anthropic-ai/sdk')).toBe(true);
    expect(anthropic.has('openai')).toBe(false);
  });
});
