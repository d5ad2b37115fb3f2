import { hostName } from './host';
import { quoted, type RequestRefusal, refuse } from './refusal';

/** Which browser origins may send requests. */
export interface OriginPolicy {
  /**
   * Origins allowed besides the server's own: `*` (any), a full origin matched exactly
   * (`https://app.example.com:8443`), or a host name matched on any scheme and port
   * (`app.example.com`, `[::1]`). Default: the `Host` allow-list, when there is one.
   */
  allowedOrigins?: readonly string[] | undefined;
  /** The `Host` allow-list ({@link hostAllowList}); the default origins when set. */
  allowedHosts?: ReadonlySet<string> | undefined;
}

/**
 * Refuses a browser's cross-site request (403). A request without `Origin` (curl, SDKs,
 * agents) is no browser's cross-site request and passes; `Origin: null` (sandboxed frames,
 * `file:` pages) and unparsable values are refused. An origin passes when its host is the
 * request's own `Host` (same site, any port), or when the policy lists it.
 */
export function checkOrigin(
  origin: string | null | undefined,
  host: string | null | undefined,
  policy: OriginPolicy,
): RequestRefusal | undefined {
  if (origin === undefined || origin === null || origin === '') return undefined;
  const refused = refuse(
    'origin_not_allowed',
    origin === 'null'
      ? 'Cross-site request refused: requests from an opaque origin (Origin: null) are not allowed.'
      : `Cross-site request refused: Origin ${quoted(origin)} is not allowed.`,
  );
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return refused;
  }
  const name = parsed.host === '' ? undefined : hostName(parsed.host);
  if (name === undefined) return refused;
  if (host !== undefined && host !== null && hostName(host) === name) return undefined;
  const serialized = parsed.origin.toLowerCase();
  const allowed = policy.allowedOrigins ?? [...(policy.allowedHosts ?? [])];
  for (const entry of allowed) {
    const lower = entry.toLowerCase().replace(/\/+$/, '');
    if (lower === '*' || lower === serialized) return undefined;
    if (!lower.includes('://') && (hostName(lower) ?? lower) === name) return undefined;
  }
  return refused;
}
