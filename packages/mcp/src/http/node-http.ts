import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A web-standard `Request` for a Node request, or `undefined` when it has none (a Host
 * or target that makes no URL, a method `fetch` refuses such as TRACE). Its `signal`
 * fires when the client goes away, so an exchange in flight is cancelled.
 */
export function toWebRequest(
  request: IncomingMessage,
  response: ServerResponse,
): Request | undefined {
  let url: URL;
  try {
    url = new URL(`http://${request.headers.host ?? 'localhost'}/`);
    // Origin form (`/mcp?x`), absolute form or `*`: only the path and query are kept.
    const target = new URL(request.url ?? '/', url);
    url.pathname = target.pathname;
    url.search = target.search;
  } catch {
    return undefined;
  }
  const controller = new AbortController();
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = {
    method: request.method ?? 'GET',
    headers,
    signal: controller.signal,
  };
  if (hasBody) {
    init.body = Readable.toWeb(request) as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  let web: Request;
  try {
    web = new Request(url, init);
  } catch {
    return undefined;
  }
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return web;
}

/**
 * Hop-by-hop fields (RFC 9110 §7.6.1) describe this connection, which `node:http` manages: a
 * handler's `Connection: keep-alive` must not override a client's `Connection: close`.
 */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
]);

/** Writes a web-standard `Response` to a Node response, streaming its body (SSE included). */
export async function writeWebResponse(web: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  web.headers.forEach((value, name) => {
    if (hopByHop.has(name)) return;
    const existing = headers[name];
    if (existing === undefined) headers[name] = value;
    else headers[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  });
  response.writeHead(web.status, headers);
  if (web.body === null) {
    response.end();
    return;
  }
  const reader = web.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  response.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      response.write(value);
    }
  } catch {
    // The client went away mid-stream; nothing is left to write to.
  } finally {
    response.off('close', cancel);
    response.end();
  }
}
