import { quoted, type RequestRefusal, refuse } from './refusal';

/** A request target split into its decoded path and its query, or the refusal of a malformed one. */
export type ParsedTarget =
  | { ok: true; path: string; query: URLSearchParams }
  | { ok: false; refusal: RequestRefusal };

const plainPath = /^\/[A-Za-z0-9._~/-]*$/;
const emptyQuery = new URLSearchParams();

/**
 * Parses a request target without ever throwing: origin form (`/path?query`), absolute
 * form (`http://host/path`, whose host is ignored: the `Host` header is checked) and
 * `*` (path `/*`, which no route answers). The path is percent-decoded and loses
 * trailing slashes; anything malformed (a URL that does not parse, `%` escapes that are
 * not UTF-8, a NUL) is an `invalid_target` refusal (400).
 */
export function parseTarget(raw: string | undefined): ParsedTarget {
  const target = raw ?? '/';
  // The common case (`/call`): a plain path, nothing to decode, no URL object to build.
  if (plainPath.test(target))
    return { ok: true, path: target.replace(/\/+$/, '') || '/', query: emptyQuery };
  let url: URL;
  let path: string;
  try {
    url = new URL(target, 'http://target.invalid');
    path = decodeURIComponent(url.pathname);
  } catch {
    return malformed(target);
  }
  if (path.includes('\u0000')) return malformed(target);
  return { ok: true, path: path.replace(/\/+$/, '') || '/', query: url.searchParams };
}

function malformed(target: string): ParsedTarget {
  return {
    ok: false,
    refusal: refuse('invalid_target', `Malformed request target: ${quoted(target)}`),
  };
}

/** Refuses a method outside `allowed` (405, with the allowed methods for the `Allow` header). */
export function checkMethod(
  method: string | undefined,
  allowed: readonly string[],
): RequestRefusal | undefined {
  const actual = method ?? 'GET';
  if (allowed.includes(actual)) return undefined;
  return refuse(
    'method_not_allowed',
    `${quoted(actual, 20)} is not allowed here (allowed: ${allowed.join(', ')}).`,
    allowed,
  );
}
