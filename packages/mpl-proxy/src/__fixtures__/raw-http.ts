import { connect, type Socket } from 'node:net';

/** What came back on a raw connection: the status (null when none) and all bytes read. */
export interface RawAnswer {
  status: number | null;
  text: string;
}

/** Opens a connection to 127.0.0.1:`port` and resolves once it is connected. */
export function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads everything until the server closes the connection, and the status it answered. */
export function answerOf(socket: Socket): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.once('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : null, text });
    });
  });
}

/** Sends raw bytes (then half-closes unless `keepOpen`) and resolves with the answer. */
export async function sendRaw(
  port: number,
  bytes: string | Buffer,
  options: { keepOpen?: boolean } = {},
): Promise<RawAnswer> {
  const socket = await open(port);
  const answer = answerOf(socket);
  socket.write(bytes);
  if (!options.keepOpen) socket.end();
  return answer;
}

// The raw request text is the shared corpus's own (one builder for every server's tests).
export { rawRequest } from '@mtpx/http-guard/test-support';
