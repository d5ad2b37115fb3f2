import { describe, expect, it } from 'vitest';
import { hostAllowList } from './host';
import { checkOrigin } from './origin';

describe('checkOrigin', () => {
  const loopback = { allowedHosts: hostAllowList({ boundHost: '127.0.0.1' }) };
  const open = { allowedHosts: hostAllowList({ boundHost: '0.0.0.0' }) };

  it('lets a request without Origin through (not a browser cross-site request)', () => {
    expect(checkOrigin(undefined, 'localhost', loopback)).toBeUndefined();
    expect(checkOrigin(null, 'localhost', loopback)).toBeUndefined();
    expect(checkOrigin('', 'localhost', loopback)).toBeUndefined();
  });

  it('refuses Origin: null (an opaque origin) and unparsable origins with 403', () => {
    for (const origin of ['null', 'not a url', 'file:///etc/passwd'])
      expect(checkOrigin(origin, '127.0.0.1:9443', loopback)).toMatchObject({
        kind: 'origin_not_allowed',
        status: 403,
      });
  });

  it('lets the server’s own origin through, any scheme and port', () => {
    expect(checkOrigin('http://127.0.0.1:9443', '127.0.0.1:9443', loopback)).toBeUndefined();
    expect(checkOrigin('https://mcp.example.com', 'mcp.example.com:8080', open)).toBeUndefined();
    expect(checkOrigin('http://[::1]:3000', '[::1]:9443', open)).toBeUndefined();
  });

  it('on loopback, lets the localhost origins through and refuses other sites', () => {
    expect(checkOrigin('http://localhost:5173', '127.0.0.1:9443', loopback)).toBeUndefined();
    expect(checkOrigin('https://evil.example', '127.0.0.1:9443', loopback)).toMatchObject({
      status: 403,
    });
  });

  it('bound to a public interface with nothing configured, takes only the same site', () => {
    expect(checkOrigin('https://evil.example', 'mcp.example.com', open)?.status).toBe(403);
  });

  it('takes host names, full origins and * as allowed origins', () => {
    const policy = { ...loopback, allowedOrigins: ['app.example', 'https://exact.example:8443'] };
    expect(checkOrigin('http://app.example:1234', 'localhost', policy)).toBeUndefined();
    expect(checkOrigin('https://exact.example:8443', 'localhost', policy)).toBeUndefined();
    expect(checkOrigin('https://exact.example', 'localhost', policy)?.status).toBe(403);
    expect(checkOrigin('http://exact.example:8443', 'localhost', policy)?.status).toBe(403);
    // The configured origins replace the Host allow-list as the default ones.
    expect(checkOrigin('http://localhost:5173', 'mcp.internal', policy)?.status).toBe(403);
    expect(
      checkOrigin('https://any.example', 'localhost', { allowedOrigins: ['*'] }),
    ).toBeUndefined();
  });
});
