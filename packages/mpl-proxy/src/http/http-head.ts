// The request heads the proxy's own HTTP layer (http-front.ts) serves, and the parts of
// the answers' heads it writes. Anything it does not parse here goes to node:http.
import { type IncomingHttpHeaders, STATUS_CODES } from 'node:http';

/** A request head of the plain shape. */
export interface Head {
  method: 'GET' | 'POST';
  target: string;
  headers: IncomingHttpHeaders;
  contentLength: number;
  /** The client asked to close after this answer (`Connection: close`). */
  close: boolean;
}

/** The end of a request head. */
export const CR_LF_CR_LF = Buffer.from('\r\n\r\n', 'latin1');
const GET_PREFIX = Buffer.from('GET /', 'latin1');
const POST_PREFIX = Buffer.from('POST ', 'latin1');
/** `GET`/`POST`, an origin-form target of RFC 3986 characters, HTTP/1.1. */
const requestLine = /^(GET|POST) (\/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*) HTTP\/1\.1$/;
/** An RFC 9110 token: a field name. */
const fieldName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A field value's characters (RFC 9110 field-vchar, SP, HTAB, obs-text), as `node:http` allows. */
export const fieldValue = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Characters that are not ASCII: the head is then written as Latin-1 on its own. */
export const notAscii = /[\u0080-\uffff]/;
const digits = /^\d{1,15}$/;
/** Fields whose presence needs `node:http`'s handling. */
const handedFields = new Set([
  'transfer-encoding',
  'expect',
  'upgrade',
  'http2-settings',
  'proxy-connection',
]);
/** More fields than this go to `node:http`, which keeps only the first ones it counts. */
export const MAX_PLAIN_FIELDS = 1_000;

/** Parses a head of the plain shape; `undefined` for anything else (`node:http` decides). */
export function parseHead(text: string, maxBodyBytes: number): Head | undefined {
  const lines = text.split('\r\n');
  const line = requestLine.exec(lines[0] as string);
  // (the request line's regex refuses a bare CR or LF in it)
  if (!line) return undefined;
  const target = line[2] as string;
  if (target.startsWith('/messages')) return undefined;
  // A tab anywhere in a field (llhttp refuses some that a trim would accept), a bare CR or
  // LF, or more fields than node:http keeps: node:http decides.
  if (text.includes('\t')) return undefined;
  if (lines.length - 1 > MAX_PLAIN_FIELDS) return undefined;
  const headers: IncomingHttpHeaders = {};
  for (let index = 1; index < lines.length; index++) {
    const field = lines[index] as string;
    if (field.includes('\r') || field.includes('\n')) return undefined;
    const colon = field.indexOf(':');
    if (colon <= 0) return undefined;
    const name = field.slice(0, colon);
    if (!fieldName.test(name)) return undefined;
    const value = field.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
    if (!fieldValue.test(value)) return undefined;
    const key = name.toLowerCase();
    if (Object.hasOwn(headers, key) || handedFields.has(key)) return undefined;
    headers[key] = value;
  }
  let contentLength = 0;
  const declared = headers['content-length'];
  if (declared !== undefined) {
    if (!digits.test(declared)) return undefined;
    contentLength = Number(declared);
    if (contentLength > maxBodyBytes) return undefined;
  }
  // Without a Host, node:http's answer (and its handling of what follows) is the reference.
  if (headers.host === undefined) return undefined;
  // `Connection: close` goes to node:http too, which answers and then deals with any
  // pipelined bytes after it: nothing is dropped here unanswered.
  const connection = headers.connection;
  if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return undefined;
  return { method: line[1] as Head['method'], target, headers, contentLength, close: false };
}

function startsWith(bytes: Buffer, prefix: Buffer): boolean {
  return bytes.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;
}

/**
 * True when `bytes[from, to)` holds a line feed without a carriage return before it, or a
 * carriage return followed by anything but a line feed (a CR last in the range is
 * undecided: its next byte has not arrived).
 */
export function hasBareLineBreak(bytes: Buffer, from: number, to: number): boolean {
  for (let index = bytes.indexOf(0x0a, from); index !== -1 && index < to; ) {
    if (index === 0 || bytes[index - 1] !== 0x0d) return true;
    index = bytes.indexOf(0x0a, index + 1);
  }
  for (let index = bytes.indexOf(0x0d, from); index !== -1 && index < to - 1; ) {
    if (bytes[index + 1] !== 0x0a) return true;
    index = bytes.indexOf(0x0d, index + 1);
  }
  return false;
}

/** True when `bytes` (five or more) can begin a plain request: `GET /` or `POST `. */
export function startsPlainRequest(bytes: Buffer): boolean {
  return startsWith(bytes, GET_PREFIX) || startsWith(bytes, POST_PREFIX);
}

/** The `Date` header's value, made once a second. */
let dateSecond = -1;
let dateText = '';
export function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

const statusLines = new Map<number, string>();
export function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown'}\r\n`;
    statusLines.set(status, line);
  }
  return line;
}
