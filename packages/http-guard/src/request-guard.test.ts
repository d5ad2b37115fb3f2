import { describe, expect, it } from 'vitest';
import { REFUSAL_STATUS } from './refusal';
import { createRequestGuard } from './request-guard';

describe('createRequestGuard', () => {
  const guard = createRequestGuard({
    boundHost: '127.0.0.1',
    methods: ['GET', 'POST'],
    jsonBodyMethods: ['POST'],
    maxBodyBytes: 100,
  });

  it('reads node:http headers and web Headers alike', () => {
    expect(guard({ method: 'GET', headers: { host: 'localhost:1' } })).toBeUndefined();
    expect(guard({ method: 'GET', headers: new Headers({ host: 'localhost:1' }) })).toBeUndefined();
    expect(guard({ method: 'GET', headers: new Headers({ host: 'evil.example' }) })?.status).toBe(
      403,
    );
  });

  it('checks Host, Origin, method, content type and body size, in that order', () => {
    const base = { host: 'localhost', 'content-type': 'application/json', 'content-length': '10' };
    const refused = (method: string, headers: Record<string, string>) =>
      guard({ method, headers: { ...base, ...headers } })?.kind;
    expect(refused('TRACE', { host: 'evil.example', origin: 'null' })).toBe('host_not_allowed');
    expect(refused('TRACE', { origin: 'null' })).toBe('origin_not_allowed');
    expect(refused('TRACE', { 'content-type': 'text/plain' })).toBe('method_not_allowed');
    expect(refused('POST', { 'content-type': 'text/plain', 'content-length': '1000' })).toBe(
      'unsupported_media_type',
    );
    expect(refused('POST', { 'content-length': '1000' })).toBe('body_too_large');
    expect(refused('GET', { 'content-type': 'text/plain' })).toBeUndefined();
    expect(refused('POST', {})).toBeUndefined();
  });

  it('gives every refusal kind a 4xx status', () => {
    for (const status of Object.values(REFUSAL_STATUS)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(500);
    }
  });
});
