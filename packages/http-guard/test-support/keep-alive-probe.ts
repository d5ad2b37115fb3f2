import { connect } from 'node:net';
import { Agent, fetch } from 'undici';

/** What {@link probeKeepAlive} saw. */
export interface KeepAliveReport {
  requests: number;
  /** Requests that failed although they were sent in time: the server's doing. */
  failures: string[];
  /**
   * Reuses that failed but were sent too late to test anything: at least the advertised
   * timeout and `closeMarginMs` (less 100 ms) after the request before them, when even a
   * correct server may have closed. Only a process starved of CPU sends that late.
   */
  late: string[];
}

/**
 * Reuses keep-alive connections at idle times from 0.9× to 1.1× the server's advertised
 * `Keep-Alive: timeout`, the way undici does when it trusts the hint completely
 * (`keepAliveTimeoutThreshold: 0`): `clients` connections each send a first request, wait
 * an idle time, and send again, `rounds` times. A server that closes a connection as the
 * hint runs out makes some of these fail (`other side closed`).
 *
 * A process starved of CPU (a second test suite beside this one) reads an answer and fires
 * its idle timer late, so it may reuse a connection later than planned, past even a correct
 * server's close `closeMarginMs` after the hint. Such a reuse tests nothing: a server
 * answers a request after it was sent, so a correct server closes no earlier than the
 * advertised timeout and the margin after the request before; a reuse that failed and was
 * sent that long after the one before is reported as {@link KeepAliveReport.late}, not as
 * a failure. The reuses a server closing at the hint breaks were sent 1.1–1.8 s after the
 * one before in a scratch run at a load of 22: inside the 1.9 s a 1 s hint allows.
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
  /** How long after the advertised timeout a correct server closes (default 1 s). */
  closeMarginMs?: number;
}): Promise<KeepAliveReport> {
  const { url, advertisedMs, clients, rounds } = options;
  const accept = options.accept ?? ((status: number) => status < 500);
  // 100 ms less: timers may fire a little early against this clock.
  const lateAfterMs = advertisedMs + (options.closeMarginMs ?? 1_000) - 100;
  const failures: string[] = [];
  const late: string[] = [];
  let requests = 0;
  const client = async (index: number) => {
    const agent = new Agent({ keepAliveTimeoutThreshold: 0, connections: 1 });
    try {
      let previousSend: number | undefined;
      const send = async () => {
        requests += 1;
        const sentAt = performance.now();
        const sinceLast = previousSend === undefined ? 0 : sentAt - previousSend;
        previousSend = sentAt;
        const failed = (what: string) => {
          if (sinceLast >= lateAfterMs)
            late.push(`${what} (sent ${Math.round(sinceLast)} ms after the request before)`);
          else failures.push(`${what} (sent ${Math.round(sinceLast)} ms after the request before)`);
        };
        try {
          const response = await fetch(url, { ...options.init?.(), dispatcher: agent });
          await response.arrayBuffer();
          if (!accept(response.status)) failures.push(`status ${response.status}`);
        } catch (error) {
          const cause = (error as { cause?: { message?: string } }).cause;
          failed(cause?.message ?? String(error));
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
  return { requests, failures, late };
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
