/**
 * Every reason a server refuses a request before routing it. Each kind has one status
 * ({@link REFUSAL_STATUS}); the servers render a refusal in their own documented error
 * shape (an MPL error, a JSON-RPC error, the Inspector's `{ error: { code, message } }`)
 * but never pick another status for it.
 */
export type RefusalKind =
  | 'host_missing'
  | 'host_invalid'
  | 'host_not_allowed'
  | 'origin_not_allowed'
  | 'method_not_allowed'
  | 'invalid_target'
  | 'unsupported_media_type'
  | 'body_not_allowed'
  | 'body_too_large'
  | 'headers_too_large'
  | 'request_timeout'
  | 'malformed_request';

/** The one status of each refusal kind (the reasons are in this package's README). */
export const REFUSAL_STATUS: Readonly<Record<RefusalKind, number>> = {
  host_missing: 400,
  host_invalid: 400,
  host_not_allowed: 403,
  origin_not_allowed: 403,
  method_not_allowed: 405,
  invalid_target: 400,
  unsupported_media_type: 415,
  body_not_allowed: 413,
  body_too_large: 413,
  headers_too_large: 431,
  request_timeout: 408,
  malformed_request: 400,
};

/** Why a request was refused: its kind, the status that kind answers, and a message for the client. */
export interface RequestRefusal {
  kind: RefusalKind;
  status: number;
  message: string;
  /** For `method_not_allowed`: the methods the resource answers (the `Allow` header). */
  allow?: readonly string[];
}

/** The refusal of `kind`, with its status. */
export function refuse(
  kind: RefusalKind,
  message: string,
  allow?: readonly string[],
): RequestRefusal {
  return allow === undefined
    ? { kind, status: REFUSAL_STATUS[kind], message }
    : { kind, status: REFUSAL_STATUS[kind], message, allow };
}

/** Status line text of every status a refusal uses. */
export const REFUSAL_REASON: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
};

/** A header value shortened for an error message (a hostile header can be 16 KiB). */
export function quoted(value: string, length = 200): string {
  return JSON.stringify(value.length > length ? `${value.slice(0, length)}…` : value);
}
