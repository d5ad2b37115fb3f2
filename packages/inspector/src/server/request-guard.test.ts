import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createInspectorGuard } from './request-guard';

const request = (method: string, headers: Record<string, string>) =>
  ({ method, headers }) as unknown as IncomingMessage;

describe('the Inspector’s request guard', () => {
  const guard = createInspectorGuard('127.0.0.1');

  it('reads only: GET and HEAD, without a body', () => {
    expect(guard(request('GET', { host: 'localhost:4319' }))).toBeUndefined();
    expect(guard(request('HEAD', { host: '127.0.0.1:4319' }))).toBeUndefined();
    expect(guard(request('DELETE', { host: 'localhost' }))).toMatchObject({
      kind: 'method_not_allowed',
      status: 405,
    });
    expect(guard(request('GET', { host: 'localhost', 'content-length': '2' }))).toMatchObject({
      kind: 'body_not_allowed',
      status: 413,
    });
    expect(
      guard(request('GET', { host: 'localhost', 'transfer-encoding': 'chunked' }))?.status,
    ).toBe(413);
  });

  it('answers the loopback names on any port, and refuses others and cross-site origins', () => {
    expect(guard(request('GET', { host: '[::1]:9999' }))).toBeUndefined();
    expect(guard(request('GET', { host: 'attacker.example:4319' }))?.kind).toBe('host_not_allowed');
    expect(
      guard(request('GET', { host: 'localhost', origin: 'http://attacker.example' }))?.kind,
    ).toBe('origin_not_allowed');
    expect(guard(request('GET', {}))?.kind).toBe('host_missing');
  });
});
