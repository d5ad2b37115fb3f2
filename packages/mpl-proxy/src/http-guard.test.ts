import { REFUSAL_STATUS, type RefusalKind, refuse } from '@mtpx/http-guard';
import { describe, expect, it } from 'vitest';
import { createProxyGuard, mplRefusal } from './http-guard';

describe('the proxy’s request guard', () => {
  const guard = createProxyGuard({ host: '127.0.0.1', allowedOrigins: ['https://app.example'] });
  const exchange = (headers: Record<string, string>, method = 'POST', target = '/call') => ({
    method,
    target,
    headers: { 'content-type': 'application/json', ...headers },
  });

  it('routes an allowed request to its path and query', () => {
    const target = guard(exchange({ host: 'localhost:9443' }, 'GET', '/provenance?planId=p'));
    expect(target.ok && [target.path, target.query.get('planId')]).toEqual(['/provenance', 'p']);
  });

  it.each([
    [{ host: 'evil.example' }, '/call', 403, 'E-POLICY-DENIED'],
    [{ host: 'localhost', origin: 'https://evil.example' }, '/call', 403, 'E-POLICY-DENIED'],
    [{ host: 'localhost', 'content-type': 'text/plain' }, '/call', 415, 'E-INVALID-REQUEST'],
    [{}, '/call', 400, 'E-INVALID-REQUEST'],
    [{ host: 'localhost' }, '/stypes/%ZZ', 400, 'E-INVALID-REQUEST'],
  ])('refuses %j %s with %i %s', (headers, target, status, code) => {
    const refused = guard(exchange(headers, 'POST', target));
    expect(refused.ok ? undefined : [refused.status, refused.error.code]).toEqual([status, code]);
  });

  it('lets allow-listed origins through', () => {
    expect(guard(exchange({ host: 'localhost', origin: 'https://app.example' })).ok).toBe(true);
  });

  it('decides each request on its own facts after remembering the combinations it let through', () => {
    const remembering = createProxyGuard({ host: '127.0.0.1' });
    const decide = (headers: Record<string, string>, method = 'POST') => {
      const target = remembering(exchange(headers, method));
      return target.ok ? 'passed' : target.status;
    };
    for (let round = 0; round < 3; round++) {
      expect(decide({ host: 'localhost:9443' })).toBe('passed');
      expect(decide({ host: 'localhost:9443', origin: 'https://evil.example' })).toBe(403);
      expect(decide({ host: 'localhost:9443', origin: 'null' })).toBe(403);
      expect(decide({ host: 'localhost:9443', 'content-type': 'text/plain' })).toBe(415);
      expect(decide({ host: 'localhost:9443', 'content-type': 'text/plain' }, 'GET')).toBe(
        'passed',
      );
      expect(decide({ host: 'evil.example:9443' })).toBe(403);
    }
    // More passing combinations than it remembers: each is still decided right.
    for (let port = 1; port <= 1_500; port++)
      expect(decide({ host: `localhost:${port}` })).toBe('passed');
    expect(decide({ host: 'evil.example:1' })).toBe(403);
  });

  it('answers every refusal kind with the shared status', () => {
    for (const kind of Object.keys(REFUSAL_STATUS) as RefusalKind[])
      expect(mplRefusal(refuse(kind, 'No.')).status).toBe(REFUSAL_STATUS[kind]);
  });
});
