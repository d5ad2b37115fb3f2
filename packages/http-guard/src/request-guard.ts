import { checkJsonContentType } from './content-type';
import { checkHost, type HostPolicy, hostAllowList } from './host';
import { checkBodyLength } from './limits';
import { checkOrigin } from './origin';
import type { RequestRefusal } from './refusal';
import { checkMethod } from './target';

/** What a server lets through: its interface and names, origins, methods and bodies. */
export interface RequestGuardOptions extends HostPolicy {
  /** See {@link OriginPolicy.allowedOrigins}. */
  allowedOrigins?: readonly string[] | undefined;
  /** The methods the server answers; others are 405. Default: any. */
  methods?: readonly string[];
  /** Methods whose body must be JSON in UTF-8 (415 otherwise). Default: none. */
  jsonBodyMethods?: readonly string[];
  /** The largest body a request may announce in `Content-Length`; 0 for no body. Default: unbounded here. */
  maxBodyBytes?: number;
}

/** A request's method and headers, from `node:http` (`IncomingHttpHeaders`) or a web `Request` (`Headers`). */
export interface GuardedRequest {
  method?: string | undefined;
  headers: Headers | Readonly<Record<string, string | string[] | undefined>>;
}

function header(headers: GuardedRequest['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The checks every server runs before routing, in this order: `Host` (400 / 403),
 * `Origin` (403), method (405), content type (415), announced body size (413). Returns
 * the first refusal, or `undefined` to let the request through.
 */
export function createRequestGuard(
  options: RequestGuardOptions,
): (request: GuardedRequest) => RequestRefusal | undefined {
  const allowedHosts = hostAllowList(options);
  const originPolicy = { allowedOrigins: options.allowedOrigins, allowedHosts };
  const { methods, jsonBodyMethods = [], maxBodyBytes } = options;
  return (request) => {
    const host = header(request.headers, 'host');
    return (
      checkHost(host, allowedHosts) ??
      checkOrigin(header(request.headers, 'origin'), host, originPolicy) ??
      (methods === undefined ? undefined : checkMethod(request.method, methods)) ??
      (jsonBodyMethods.includes(request.method ?? 'GET')
        ? checkJsonContentType(header(request.headers, 'content-type'))
        : undefined) ??
      (maxBodyBytes === undefined
        ? undefined
        : checkBodyLength(
            {
              contentLength: header(request.headers, 'content-length'),
              transferEncoding: header(request.headers, 'transfer-encoding'),
            },
            maxBodyBytes,
          ))
    );
  };
}
