import { isIP } from 'node:net';
import { quoted, type RequestRefusal, refuse } from './refusal';

/** The names a server bound to loopback answers to when no names are configured. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** True for an address of the loopback interface (`127.0.0.0/8`, `::1`, `localhost`). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare.startsWith('::ffff:127.');
}

// RFC 3986 `host [ ":" port ]`: an IP literal in brackets, or a reg-name (no `@`, no `/`,
// no spaces), then an optional port.
const hostHeaderSyntax = /^(\[[0-9a-f:.]+\]|[a-z0-9._~!$&'()*+,;=%-]+)(?::(\d{0,5}))?$/;

/**
 * The host name of a `Host` value or an allow-list entry, lower case, without its port
 * (`Example.com:8080` → `example.com`, `[0:0::1]:3000` → `[::1]`, a bare `::1` → `[::1]`);
 * `undefined` when it is not a valid `host[:port]`.
 */
export function hostName(value: string): string | undefined {
  let lower = value.trim().toLowerCase();
  if (isIP(lower) === 6) lower = `[${lower}]`;
  const match = hostHeaderSyntax.exec(lower);
  const name = match?.[1];
  if (name === undefined) return undefined;
  // A port is 0–65535: `127.0.0.1:99999` names no address (and no URL can hold it).
  if (match?.[2] !== undefined && match[2] !== '' && Number(match[2]) > 65_535) return undefined;
  if (!name.startsWith('[')) return name;
  try {
    // The URL parser writes an IPv6 literal in its one canonical form.
    return new URL(`http://${name}/`).hostname;
  } catch {
    return undefined;
  }
}

/** Where a server listens and which names it was told to answer to. */
export interface HostPolicy {
  /** The interface the server is bound to (`127.0.0.1`, `::1`, `0.0.0.0`, a name…). */
  boundHost: string;
  /** Host names (a port, if given, is ignored) the `Host` header may carry. */
  allowedHosts?: readonly string[] | undefined;
}

/**
 * The `Host` names to accept: the configured ones; else, bound to loopback, the loopback
 * names; else `undefined`, meaning any (a server on a public interface is reached by names
 * it cannot know — configure them to check).
 */
export function hostAllowList(policy: HostPolicy): ReadonlySet<string> | undefined {
  const configured = policy.allowedHosts ?? [];
  if (configured.length > 0) {
    const names = configured.map((entry) => hostName(entry) ?? entry.toLowerCase());
    return new Set(names);
  }
  return isLoopbackAddress(policy.boundHost) ? new Set(LOOPBACK_HOSTS) : undefined;
}

/**
 * Refuses a request whose `Host` is missing or not a valid `host[:port]` (400), or names
 * a host outside `allowed` (403: DNS rebinding). The port is not compared.
 */
export function checkHost(
  host: string | null | undefined,
  allowed: ReadonlySet<string> | undefined,
): RequestRefusal | undefined {
  if (host === undefined || host === null || host === '')
    return refuse('host_missing', 'The request has no Host header.');
  const name = hostName(host);
  if (name === undefined)
    return refuse('host_invalid', `The Host header ${quoted(host)} is not a valid host.`);
  if (allowed === undefined || allowed.has(name)) return undefined;
  return refuse(
    'host_not_allowed',
    `This server does not answer to Host ${quoted(host)} (allowed: ${[...allowed].join(', ')}).`,
  );
}
