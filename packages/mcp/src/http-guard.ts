import {
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';

/**
 * Checks the bearer token of a request: `true` lets it through. Plug an OAuth resource
 * server's token verification in here (introspection, a JWT check); the request is given
 * for audience or path checks.
 */
export type BearerTokenCheck = (token: string, request: Request) => boolean | Promise<boolean>;

/** What decides which requests reach the MCP endpoint. */
export interface HttpGuardOptions {
  /** The interface the server listens on; loopback addresses get the loopback defaults. */
  host: string;
  /** Host names the `Host` header may carry. */
  allowedHosts?: readonly string[] | undefined;
  /** Host names the `Origin` header may carry. */
  allowedOrigins?: readonly string[] | undefined;
}

const LOOPBACK_INTERFACES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** True for the loopback interfaces `serveMcp` treats as local-only. */
export function isLoopbackInterface(host: string): boolean {
  return LOOPBACK_INTERFACES.has(host) || host.startsWith('127.');
}

/**
 * DNS-rebinding and cross-origin protection (the spec's MUST on `Origin`): a `Host` outside
 * the allowed names answers 403, and so does a browser's `Origin` outside them. Bound to
 * loopback, both default to the localhost names. Bound elsewhere without an allow-list,
 * `Host` is not checked and `Origin`, when sent, must name the host the request was sent
 * to (same origin); requests without `Origin` (non-browser clients) pass.
 */
export function createHttpGuard(
  options: HttpGuardOptions,
): (request: Request) => Response | undefined {
  const loopback = isLoopbackInterface(options.host);
  const hosts = options.allowedHosts ?? (loopback ? localhostAllowedHostnames() : undefined);
  const origins =
    options.allowedOrigins ??
    options.allowedHosts ??
    (loopback ? localhostAllowedOrigins() : undefined);
  return (request) => {
    const badHost = hosts && hostHeaderValidationResponse(request, [...hosts]);
    if (badHost) return badHost;
    if (origins) return originValidationResponse(request, [...origins]);
    const host = request.headers.get('host');
    return host === null ? undefined : originValidationResponse(request, [hostnameOf(host)]);
  };
}

/** `example.com:8080` → `example.com`; `[::1]:3000` → `[::1]`. */
function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  return hostHeader.split(':')[0] ?? hostHeader;
}

/**
 * The 401 answer unless `check` accepts the request's `Authorization: Bearer` token; a
 * throwing check refuses too (and is reported).
 */
export async function bearerTokenRefusal(
  request: Request,
  check: BearerTokenCheck,
  onError?: (error: Error) => void,
): Promise<Response | undefined> {
  const header = request.headers.get('authorization') ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  let accepted = false;
  if (match?.[1] !== undefined) {
    try {
      accepted = await check(match[1], request);
    } catch (error) {
      onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
  if (accepted === true) return undefined;
  const challenge =
    match === null
      ? 'Bearer'
      : 'Bearer error="invalid_token", error_description="The token was refused."';
  return Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32001, message: 'Unauthorized: a valid bearer token is required.' },
      id: null,
    },
    { status: 401, headers: { 'www-authenticate': challenge } },
  );
}
