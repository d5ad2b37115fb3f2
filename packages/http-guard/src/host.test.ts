import { describe, expect, it } from 'vitest';
import { checkHost, hostAllowList, hostName, isLoopbackAddress, LOOPBACK_HOSTS } from './host';

describe('hostName', () => {
  it.each([
    ['localhost', 'localhost'],
    ['LocalHost:3000', 'localhost'],
    ['example.com:8080', 'example.com'],
    ['127.0.0.1:9443', '127.0.0.1'],
    ['[::1]', '[::1]'],
    ['[::1]:9443', '[::1]'],
    ['[0:0:0:0:0:0:0:1]:80', '[::1]'],
    ['::1', '[::1]'],
    ['host:', 'host'],
  ])('%s → %s', (value, name) => {
    expect(hostName(value)).toBe(name);
  });

  it.each([
    'evil@localhost',
    'a b',
    '[::1',
    'localhost/x',
    'host:99999x',
    'host:99999',
    '127.0.0.1:80:80',
    '',
  ])('%j is not a host', (value) => {
    expect(hostName(value)).toBeUndefined();
  });
});

describe('hostAllowList', () => {
  it('takes the configured names, without ports, in lower case', () => {
    expect(
      hostAllowList({ boundHost: '127.0.0.1', allowedHosts: ['MCP.internal:80', '::1'] }),
    ).toEqual(new Set(['mcp.internal', '[::1]']));
  });

  it.each(['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])(
    'bound to loopback %s, answers to the loopback names',
    (boundHost) => {
      expect(hostAllowList({ boundHost })).toEqual(new Set(LOOPBACK_HOSTS));
      expect(isLoopbackAddress(boundHost)).toBe(true);
    },
  );

  it.each(['0.0.0.0', '::', '192.168.1.5', 'mcp.example.com'])(
    'bound to %s with nothing configured, checks no names',
    (boundHost) => {
      expect(hostAllowList({ boundHost })).toBeUndefined();
      expect(hostAllowList({ boundHost, allowedHosts: [] })).toBeUndefined();
    },
  );
});

describe('checkHost', () => {
  const loopback = hostAllowList({ boundHost: '127.0.0.1' });

  it.each(['localhost', 'localhost:3000', '127.0.0.1:9443', '[::1]:8080', '[::1]', 'LOCALHOST'])(
    'lets %s through on loopback, any port',
    (host) => {
      expect(checkHost(host, loopback)).toBeUndefined();
    },
  );

  it.each(['evil.example', 'evil.example:9443', '127.0.0.1.nip.io', 'localhost.', '[::2]:80'])(
    'refuses %s on loopback: 403 host_not_allowed (DNS rebinding)',
    (host) => {
      expect(checkHost(host, loopback)).toMatchObject({ kind: 'host_not_allowed', status: 403 });
    },
  );

  it('refuses a missing Host with 400, even when no names are checked', () => {
    for (const host of [undefined, null, ''])
      expect(checkHost(host, undefined)).toMatchObject({ kind: 'host_missing', status: 400 });
  });

  it.each(['evil@localhost', 'a b', '[::1'])('refuses the invalid Host %j with 400', (host) => {
    expect(checkHost(host, undefined)).toMatchObject({ kind: 'host_invalid', status: 400 });
  });

  it('lets any valid Host through when no names are checked', () => {
    expect(checkHost('anything.example:1234', undefined)).toBeUndefined();
  });

  it('checks configured names instead of the loopback ones', () => {
    const allowed = hostAllowList({ boundHost: '127.0.0.1', allowedHosts: ['mcp.internal'] });
    expect(checkHost('mcp.internal:443', allowed)).toBeUndefined();
    expect(checkHost('127.0.0.1', allowed)?.status).toBe(403);
  });

  it('keeps a hostile Host short in its message', () => {
    const refusal = checkHost(`${'a'.repeat(10_000)}.example`, loopback);
    expect(refusal?.message.length).toBeLessThan(400);
  });
});
