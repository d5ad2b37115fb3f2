// The hostile requests every MTPX server must survive (issue 14's catalogue of the MPL
// proxy, and issue 23's twelve requests that once killed serveMcp). Each server's tests
// send them as raw bytes: every answer a 4xx (or, where HTTP says so, a clean close),
// never a 5xx, and the server still answers afterwards.

/** Where the requests go: the server's address and the paths it serves. */
export interface CorpusTarget {
  /** `127.0.0.1:PORT`, the `Host` of a well-behaved request. */
  host: string;
  /** A path that takes a JSON `POST` (`/call`, `/mcp`; any path for a server that takes none). */
  postPath: string;
  /** A path that answers `GET` (`/health`, `/mcp`, `/api/runs`). */
  getPath: string;
  /** Headers a JSON `POST` of this server carries besides `Host` and `Content-Type`. */
  postHeaders?: Record<string, string>;
}

/** One hostile request. */
export interface HostileRequest {
  name: string;
  bytes(target: CorpusTarget): Buffer;
  /** The server may close without an answer (HTTP gives it none to send, e.g. `CONNECT`). */
  closeAllowed?: boolean;
  /** The request is sent and then half-closed (its body never arrives in full). */
  halfClose?: boolean;
  /** A well-formed request a server may serve (2xx/3xx): only a 5xx or a crash fails it. */
  successAllowed?: boolean;
}

/** A raw HTTP/1.1 request with `Connection: close`; `Content-Length` added for a body unless framed. */
export function rawRequest(
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | Buffer = '',
  options: { keepAlive?: boolean } = {},
): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`];
  if (!options.keepAlive) lines.push('Connection: close');
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const bodyBytes = typeof body === 'string' ? Buffer.from(body) : body;
  if (
    body.length > 0 &&
    !Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name))
  )
    lines.push(`Content-Length: ${bodyBytes.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bodyBytes]);
}

const latin1 = (text: string) => Buffer.from(text, 'latin1');
const jsonRpcBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
const json = (target: CorpusTarget, extra: Record<string, string> = {}) => ({
  Host: target.host,
  'Content-Type': 'application/json',
  ...target.postHeaders,
  ...extra,
});
const invalidUtf8 = Buffer.concat([
  Buffer.from('{"method":"agent.plan","payload":{"planId":"'),
  Buffer.from([0xc3, 0x28]),
  Buffer.from('"}}'),
]);
const deepJson = `{"method":"m","payload":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
const chunkedOverLimit = () => {
  // 2 MiB in 64 KiB chunks: over every server's body limit.
  const chunk = 'x'.repeat(64 * 1024);
  return `${Array.from({ length: 32 }, () => `${(64 * 1024).toString(16)}\r\n${chunk}\r\n`).join('')}0\r\n\r\n`;
};

/** Issue 23: each of these once ended the `serveMcp` process. */
export const crashingRequests: readonly HostileRequest[] = [
  { name: 'TRACE', bytes: (t) => rawRequest('TRACE', t.getPath, { Host: t.host }) },
  { name: 'TRACK', bytes: (t) => rawRequest('TRACK', t.getPath, { Host: t.host }) },
  {
    name: 'CONNECT',
    bytes: (t) => rawRequest('CONNECT', t.host, { Host: t.host }),
    closeAllowed: true,
  },
  {
    name: 'an absolute-form target',
    successAllowed: true,
    bytes: (t) => rawRequest('GET', `http://${t.host}${t.getPath}`, { Host: t.host }),
  },
  {
    name: 'an absolute-form target with userinfo',
    successAllowed: true,
    bytes: (t) => rawRequest('GET', `http://user:pass@${t.host}${t.getPath}`, { Host: t.host }),
  },
  { name: 'OPTIONS *', bytes: (t) => rawRequest('OPTIONS', '*', { Host: t.host }) },
  { name: 'GET *', bytes: (t) => rawRequest('GET', '*', { Host: t.host }) },
  {
    name: 'Host with userinfo',
    bytes: (t) => rawRequest('GET', t.getPath, { Host: `user@${t.host}` }),
  },
  {
    name: 'Host with a space and a second name',
    bytes: (t) => rawRequest('GET', t.getPath, { Host: `${t.host} evil.example` }),
  },
  {
    name: 'Host with a comma and a second name',
    bytes: (t) => rawRequest('GET', t.getPath, { Host: `${t.host}, evil.example` }),
  },
  {
    name: 'Host with port 99999',
    bytes: (t) => rawRequest('GET', t.getPath, { Host: '127.0.0.1:99999' }),
  },
  {
    name: 'Host with two ports',
    bytes: (t) => rawRequest('GET', t.getPath, { Host: '127.0.0.1:80:80' }),
  },
];

/** Issue 14's catalogue (the MPL proxy's first), and the heads issue 23 found parsed differently. */
export const hostileRequests: readonly HostileRequest[] = [
  {
    name: 'invalid UTF-8 in the body',
    bytes: (t) => rawRequest('POST', t.postPath, json(t), invalidUtf8),
  },
  {
    name: 'a text/plain body from Origin https://evil.example',
    bytes: (t) =>
      rawRequest(
        'POST',
        t.postPath,
        json(t, { 'Content-Type': 'text/plain', Origin: 'https://evil.example' }),
        jsonRpcBody,
      ),
  },
  {
    name: 'a JSON body from Origin https://evil.example',
    bytes: (t) =>
      rawRequest('POST', t.postPath, json(t, { Origin: 'https://evil.example' }), jsonRpcBody),
  },
  {
    name: 'a text/plain body without Origin',
    bytes: (t) =>
      rawRequest('POST', t.postPath, json(t, { 'Content-Type': 'text/plain' }), jsonRpcBody),
  },
  {
    name: 'JSON in another charset',
    bytes: (t) =>
      rawRequest(
        'POST',
        t.postPath,
        json(t, { 'Content-Type': 'application/json; charset=latin1' }),
        jsonRpcBody,
      ),
  },
  {
    name: 'a POST without Content-Type',
    bytes: (t) => rawRequest('POST', t.postPath, { Host: t.host, ...t.postHeaders }, jsonRpcBody),
  },
  {
    name: 'DNS rebinding: Host evil.example',
    bytes: (t) => rawRequest('GET', t.getPath, { Host: 'evil.example' }),
  },
  {
    name: 'no Host header',
    bytes: (t) => latin1(`GET ${t.getPath} HTTP/1.1\r\nConnection: close\r\n\r\n`),
  },
  { name: 'a %ZZ escape', bytes: (t) => rawRequest('GET', `${t.getPath}/%ZZ`, { Host: t.host }) },
  {
    name: 'a %E0%A4%A escape',
    bytes: (t) => rawRequest('GET', `${t.getPath}/%E0%A4%A`, { Host: t.host }),
  },
  {
    name: 'the request target http://[/health',
    bytes: (t) => rawRequest('GET', 'http://[/health', { Host: t.host }),
  },
  {
    name: 'a NUL in the path',
    bytes: (t) => rawRequest('GET', `${t.getPath}/a%00b`, { Host: t.host }),
  },
  {
    name: '64 KB of headers',
    bytes: (t) =>
      rawRequest('GET', t.getPath, { Host: t.host, 'X-Padding': 'a'.repeat(64 * 1024) }),
  },
  {
    name: 'Content-Length together with Transfer-Encoding',
    bytes: (t) =>
      latin1(
        `POST ${t.postPath} HTTP/1.1\r\nHost: ${t.host}\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
      ),
  },
  {
    name: 'a chunked body over the limit',
    bytes: (t) =>
      Buffer.concat([
        rawRequest('POST', t.postPath, json(t, { 'Transfer-Encoding': 'chunked' })),
        latin1(chunkedOverLimit()),
      ]),
  },
  {
    name: 'a declared Content-Length over the limit',
    bytes: (t) =>
      rawRequest('POST', t.postPath, json(t, { 'Content-Length': String(10 * 1024 * 1024) }), '{}'),
    halfClose: true,
  },
  {
    name: 'a body that is not JSON',
    bytes: (t) => rawRequest('POST', t.postPath, json(t), '{"method":'),
  },
  {
    name: 'JSON nested 20 000 deep',
    bytes: (t) => rawRequest('POST', t.postPath, json(t), deepJson),
  },
  {
    name: 'a malformed request line',
    bytes: (t) => latin1(`GET ${t.getPath} HTTP/1.1 extra\r\nHost: ${t.host}\r\n\r\n`),
  },
  { name: 'a bare line feed garbage', bytes: () => latin1('NOT HTTP AT ALL\n\n') },
  {
    name: 'a head whose lines end in a bare LF',
    bytes: (t) => latin1(`GET ${t.getPath} HTTP/1.1\nHost: ${t.host}\nConnection: close\n\n`),
  },
  {
    name: 'a bare CR in a header value',
    bytes: (t) => latin1(`GET ${t.getPath} HTTP/1.1\r\nHost: ${t.host}\r\nX-A: a\rb\r\n\r\n`),
  },
  {
    name: 'a Content-Length with a trailing tab',
    bytes: (t) =>
      latin1(
        `POST ${t.postPath} HTTP/1.1\r\nHost: ${t.host}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 2\t\r\n\r\n{}`,
      ),
  },
  {
    name: 'an Origin after 1,000 header fields',
    successAllowed: true,
    bytes: (t) => {
      const fields = Array.from({ length: 1_000 }, (_, index) => `X-F${index}: ${index}`);
      return latin1(
        `GET ${t.getPath} HTTP/1.1\r\nHost: ${t.host}\r\n${fields.join('\r\n')}\r\nOrigin: https://evil.example\r\nConnection: close\r\n\r\n`,
      );
    },
  },
  {
    name: 'a garbage request after a pipelined one',
    bytes: (t) =>
      Buffer.concat([
        rawRequest('GET', t.getPath, { Host: t.host }, '', { keepAlive: true }),
        latin1('GARBAGE\r\n\r\n'),
      ]),
  },
];

/** Every hostile request, issue 23's first. */
export const hostileCorpus: readonly HostileRequest[] = [...crashingRequests, ...hostileRequests];
