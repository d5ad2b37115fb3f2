import { connect } from 'node:net';
import { Agent, fetch } from 'undici';

/** What {@link probeKeepAlive} saw. */
export interface KeepAliveReport {
  requests: number;
  failures: string[];
}

/**
 * Reuses keep-alive connections at idle times from 0.9× to 1.1× the server's advertised
 * `Keep-Alive: timeout`, the way undici does when it trusts the hint completely
 * (`keepAliveTimeoutThreshold: 0`): `clients` connections each send a first request, wait
 * an idle time, and send again, `rounds` times. A server that closes a connection as the
 * hint runs out makes some of these fail (`other side closed`).
 */
export async function probeKeepAlive(options: {
  url: string;
  init?: () => Parameters<typeof fetch>[1];
  advertisedMs: number;
  clients: number;
  rounds: number;
  /** Accepts an answer's status (default: any below 500). */
  accept?: (status: number) => boolean;
  /**
   * Keep this process's event loop busy meanwhile (20 ms of work every 50 ms), so the
   * client's timers and reads run late, as on a loaded machine.
   */
  busy?: boolean;
}): Promise<KeepAliveReport> {
  const { url, advertisedMs, clients, rounds } = options;
  const accept = options.accept ?? ((status: number) => status < 500);
  const failures: string[] = [];
  let requests = 0;
  const client = async (index: number) => {
    const agent = new Agent({ keepAliveTimeoutThreshold: 0, connections: 1 });
    try {
      const send = async () => {
        requests += 1;
        try {
          const response = await fetch(url, { ...options.init?.(), dispatcher: agent });
          await response.arrayBuffer();
          if (!accept(response.status)) failures.push(`status ${response.status}`);
        } catch (error) {
          const cause = (error as { cause?: { message?: string } }).cause;
          failures.push(cause?.message ?? String(error));
        }
      };
      await send();
      for (let round = 0; round < rounds; round++) {
        // Spread over 0.9× … 1.1× the advertised time, differently for each client.
        const step = (index * rounds + round) % 21;
        const idle = advertisedMs * (0.9 + (0.2 * step) / 20);
        await new Promise((resolve) => setTimeout(resolve, idle));
        await send();
      }
    } finally {
      await agent.close();
    }
  };
  const busy = options.busy
    ? setInterval(() => {
        const until = performance.now() + 20;
        while (performance.now() < until);
      }, 50)
    : undefined;
  try {
    await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  } finally {
    clearInterval(busy);
  }
  return { requests, failures };
}

/** What {@link idleClose} measured on one keep-alive connection. */
export interface IdleClose {
  /** The `Keep-Alive: timeout=` the answer advertised, in seconds (`undefined`: none). */
  advertisedSeconds: number | undefined;
  /**
   * From the moment the request was sent to the server's close, in ms: the server's idle
   * wait plus its answer time. Measured from the send, not from the answer's arrival, so a
   * busy client (which reads the answer late) can only make it longer.
   */
  closedAfterMs: number;
}

/**
 * Sends one keep-alive request (`bytes`, without `Connection: close`) on a raw connection,
 * reads the answer and waits for the server to close the idle connection. A busy machine
 * only makes `closedAfterMs` longer, so a lower bound on it is a stable check.
 */
export function idleClose(port: number, bytes: Buffer): Promise<IdleClose> {
  return new Promise((resolve, reject) => {
    let text = '';
    let sentAt = 0;
    const socket = connect(port, '127.0.0.1', () => {
      sentAt = performance.now();
      socket.write(bytes);
    });
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.once('close', () => {
      const match = /\r\nkeep-alive: *timeout=(\d+)/i.exec(text);
      resolve({
        advertisedSeconds: match ? Number(match[1]) : undefined,
        closedAfterMs: performance.now() - sentAt,
      });
    });
  });
}
