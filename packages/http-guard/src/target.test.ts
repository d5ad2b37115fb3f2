import { describe, expect, it } from 'vitest';
import { checkMethod, parseTarget } from './target';

describe('parseTarget', () => {
  it.each([
    ['/call', '/call'],
    ['/stypes/', '/stypes'],
    ['/', '/'],
    ['/stypes/a%20b?x=1', '/stypes/a b'],
    ['http://evil.example/mcp?x=1', '/mcp'],
    ['*', '/*'],
  ])('%s → path %s', (target, path) => {
    const parsed = parseTarget(target);
    expect(parsed.ok && parsed.path).toBe(path);
  });

  it.each(['/stypes/%ZZ', '/stypes/%E0%A4%A', 'http://[/health', '/a%00b'])(
    'refuses %s with 400 invalid_target',
    (target) => {
      const parsed = parseTarget(target);
      expect(parsed.ok ? undefined : parsed.refusal).toMatchObject({
        kind: 'invalid_target',
        status: 400,
      });
    },
  );

  it('reads the query', () => {
    const parsed = parseTarget('/provenance?planId=p1');
    expect(parsed.ok && parsed.query.get('planId')).toBe('p1');
  });
});

describe('checkMethod', () => {
  it('lets the allowed methods through and refuses others with 405 and the Allow list', () => {
    expect(checkMethod('GET', ['GET', 'HEAD'])).toBeUndefined();
    expect(checkMethod(undefined, ['GET'])).toBeUndefined();
    expect(checkMethod('TRACE', ['GET', 'HEAD'])).toMatchObject({
      kind: 'method_not_allowed',
      status: 405,
      allow: ['GET', 'HEAD'],
    });
  });
});
