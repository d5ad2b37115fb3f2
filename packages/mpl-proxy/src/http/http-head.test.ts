import { describe, expect, it } from 'vitest';
import { hasBareLineBreak, parseHead, startsPlainRequest } from './http-head';

const head = (...lines: string[]) => lines.join('\r\n');
const limit = 1024;

describe('parseHead', () => {
  it('reads a plain head: method, target, lower-cased headers, the body length', () => {
    expect(
      parseHead(
        head(
          'POST /call HTTP/1.1',
          'Host: 127.0.0.1:9443',
          'Content-Type:application/json',
          'Content-Length: 12 ',
        ),
        limit,
      ),
    ).toEqual({
      method: 'POST',
      target: '/call',
      headers: {
        host: '127.0.0.1:9443',
        'content-type': 'application/json',
        'content-length': '12',
      },
      contentLength: 12,
      close: false,
    });
    expect(
      parseHead(head('GET /health HTTP/1.1', 'Host: x', 'Connection: Keep-Alive'), limit),
    ).toMatchObject({ contentLength: 0, close: false });
  });

  it.each([
    ['HTTP/1.0', head('GET /health HTTP/1.0', 'Host: x')],
    ['another method', head('PUT /call HTTP/1.1', 'Host: x')],
    ['an absolute target', head('GET http://x/health HTTP/1.1', 'Host: x')],
    ['two spaces in the request line', head('GET  /health HTTP/1.1', 'Host: x')],
    ['the event stream', head('GET /messages?stype=a HTTP/1.1', 'Host: x')],
    ['a repeated header', head('GET /health HTTP/1.1', 'Host: x', 'host: y')],
    ['Transfer-Encoding', head('POST /call HTTP/1.1', 'Transfer-Encoding: chunked')],
    ['Expect', head('POST /call HTTP/1.1', 'Expect: 100-continue', 'Content-Length: 2')],
    ['Upgrade', head('GET / HTTP/1.1', 'Connection: Upgrade', 'Upgrade: websocket')],
    ['a Connection option list', head('GET /health HTTP/1.1', 'Connection: keep-alive, close')],
    ['a space before the colon', head('GET /health HTTP/1.1', 'Host : x')],
    ['a folded line', head('GET /health HTTP/1.1', 'X-A: 1', ' 2')],
    ['a control character in a value', head('GET /health HTTP/1.1', 'X-A: a\u0001b')],
    ['a Content-Length that is not digits', head('POST /call HTTP/1.1', 'Content-Length: 1e3')],
    ['a body over the limit', head('POST /call HTTP/1.1', `Content-Length: ${limit + 1}`)],
    // Issue 23: heads this layer once read differently from node:http.
    ['Connection: close', head('GET /health HTTP/1.1', 'Host: x', 'Connection: close')],
    ['Proxy-Connection', head('GET /health HTTP/1.1', 'Host: x', 'Proxy-Connection: close')],
    ['a tab after a value', head('POST /call HTTP/1.1', 'Host: x', 'Content-Length: 2\t')],
    ['a tab inside a value', head('GET /health HTTP/1.1', 'Host: x', 'X-A: a\tb')],
    ['no Host', head('GET /health HTTP/1.1', 'X-A: 1')],
    ['a bare CR in a value', head('GET /health HTTP/1.1', 'Host: x', 'X-A: a\rb')],
    ['a bare LF in a value', head('GET /health HTTP/1.1', 'Host: x', 'X-A: a\nb')],
    [
      'more than 1,000 fields',
      head(
        'GET /health HTTP/1.1',
        'Host: x',
        ...Array.from({ length: 1_000 }, (_, index) => `X-F${index}: ${index}`),
      ),
    ],
  ])('leaves %s to node:http', (_name, text) => {
    expect(parseHead(text, limit)).toBeUndefined();
  });
});

describe('hasBareLineBreak', () => {
  it('finds a LF without CR and a CR without LF; a CR last in the range is undecided', () => {
    const bytes = (text: string) => Buffer.from(text, 'latin1');
    expect(hasBareLineBreak(bytes('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), 0, 30)).toBe(false);
    expect(hasBareLineBreak(bytes('GET / HTTP/1.1\nHost: x'), 0, 22)).toBe(true);
    expect(hasBareLineBreak(bytes('GET / HTTP/1.1\rHost: x'), 0, 22)).toBe(true);
    expect(hasBareLineBreak(bytes('GET / HTTP/1.1\r'), 0, 15)).toBe(false);
  });
});

describe('startsPlainRequest', () => {
  it('accepts the first bytes of GET and POST requests only', () => {
    expect(startsPlainRequest(Buffer.from('GET /health'))).toBe(true);
    expect(startsPlainRequest(Buffer.from('POST /call'))).toBe(true);
    expect(startsPlainRequest(Buffer.from('HEAD /health'))).toBe(false);
    expect(startsPlainRequest(Buffer.from('\r\nGET /'))).toBe(false);
  });
});
