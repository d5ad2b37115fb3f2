import { describe, expect, it } from 'vitest';
import { closestFlag, editDistance, unknownFlagMessage } from './flag-suggestion';

describe('editDistance', () => {
  it('counts inserts, deletes, replacements and swapped neighbours', () => {
    expect(editDistance('provider', 'provider')).toBe(0);
    expect(editDistance('providr', 'provider')).toBe(1);
    expect(editDistance('porvider', 'provider')).toBe(1);
    expect(editDistance('modle', 'model')).toBe(1);
    expect(editDistance('', 'json')).toBe(4);
  });
});

describe('closestFlag', () => {
  const known = ['provider', 'model', 'base-url', 'json', 'help'];
  it('finds the flag a typo was meant to be', () => {
    expect(closestFlag('--providr', known)).toBe('provider');
    expect(closestFlag('--base-ur=http://x', known)).toBe('base-url');
    expect(closestFlag('--jsno', known)).toBe('json');
  });
  it('suggests nothing for a word that is not close to any flag', () => {
    expect(closestFlag('--verbose', known)).toBeUndefined();
    expect(closestFlag('--x', known)).toBeUndefined();
  });
});

describe('unknownFlagMessage', () => {
  it('says what was typed and, when there is one, what was meant', () => {
    expect(unknownFlagMessage('--modle', ['model'])).toBe(
      'Unknown flag --modle: did you mean --model? (see --help)',
    );
    expect(unknownFlagMessage('--zzz', ['model'])).toBe(
      'Unknown flag --zzz (see --help for the flags this app takes).',
    );
  });
});
