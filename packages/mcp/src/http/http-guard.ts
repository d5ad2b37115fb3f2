import { createRequestGuard, type GuardedRequest, type RequestRefusal } from '@mtpx/http-guard';

/**
 * Checks the bearer token of a request: `true` lets it through. Plug an OAuth resource
 * server's token verification in here (introspection, a JWT check); the request is given
 * for audience or path checks.
 */
export type BearerTokenCheck = (token: string, request: Request) => boolean | Promise<boolean>;

/** What decides which requests reach the MCP endpoint (`@mtpx/http-guard`'s rule). */
export interface HttpGuardOptions {
  /** The interface the server listens on; loopback addresses get the loopback defaults. */
  host: string;
  /** Host names the `Host` header may carry. */
  allowedHosts?: readonly string[] | undefined;
  /** Host names (or full origins) the `Origin` header may carry. Default: `allowedHosts`. */
  allowedOrigins?: readonly string[] | undefined;
}

/** The methods of Streamable HTTP (2025-era sessions use all three; 2026-07-28 only POST). */
const MCP_METHODS = ['GET', 'POST', 'DELETE'];

/**
 * DNS-rebinding and cross-origin protection (the spec's MUST on `Origin`), with the
 * guard every MTPX server runs: a missing or malformed `Host` is 400, a `Host` outside
 * the allowed names 403, a browser's `Origin` outside them 403, a method other than
 * GET, POST and DELETE 405. (A POST body that is not JSON is 415 too, checked by the
 * SDK after the bearer token.) Bound to loopback, names default to the localhost names.
 * Bound elsewhere without an allow-list, `Host` is not checked and `Origin`, when sent,
 * must name the host the request was sent to; requests without `Origin` (non-browser
 * clients) pass.
 */
export function createHttpGuard(
  options: HttpGuardOptions,
): (request: GuardedRequest) => Response | undefined {
  const guard = createRequestGuard({
    boundHost: options.host,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    methods: MCP_METHODS,
  });
  return (request) => {
    const refusal = guard(request);
    return refusal === undefined ? undefined : refusalResponse(refusal);
  };
}

/** A refusal as MCP's JSON-RPC error answer (code -32000, as the SDK's own guards send). */
export function refusalResponse(refusal: RequestRefusal): Response {
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: refusal.message }, id: null },
    {
      status: refusal.status,
      ...(refusal.allow !== undefined && { headers: { allow: refusal.allow.join(', ') } }),
    },
  );
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
