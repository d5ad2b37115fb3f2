// The load generator of row 5, in its own process (`fork`ed by the bench) so the load and
// the server under test never share an event loop. It answers each `load` message with
// one autocannon run's report, and exits when the bench disconnects.
import autocannon from 'autocannon';
import type { LoadReply, LoadRequest } from './load-protocol';

/** The `fraction` quantile of sorted values (nearest rank). */
function quantile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil(fraction * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

async function runLoad(request: LoadRequest): Promise<LoadReply> {
  let finished: (error: Error | null, result: autocannon.Result) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finished = (error, result) => (error ? reject(error) : resolve(result));
  });
  const instance = autocannon(
    {
      // autocannon takes several URLs and opens connection i to URL i mod n (its types
      // name one).
      url: request.url as string,
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      duration: request.durationSeconds,
      connections: request.connections,
      pipelining: 1,
      ...(request.rate === undefined ? {} : { overallRate: request.rate }),
      // autocannon stops at the first sample tick after the duration: tick often.
      sampleInt: 100,
    },
    (error, result) => finished(error, result),
  );
  // autocannon's own histogram keeps whole milliseconds; a loopback answer takes less, so
  // every 2xx answer's latency is kept here at full resolution.
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode < 200 || statusCode > 299) return;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count] = responseTime;
    count += 1;
  });
  const result = await done;
  const sorted = latencies.subarray(0, count).sort();
  const completed = result['2xx'];
  let total = 0;
  for (const latency of sorted) total += latency;
  return {
    type: 'report',
    requestsPerSecond: completed / result.duration,
    latencyP50Ms: quantile(sorted, 0.5),
    latencyP99Ms: quantile(sorted, 0.99),
    latencyMeanMs: count === 0 ? 0 : total / count,
    completed,
    non2xx: result.non2xx,
    errors: result.errors,
    durationSeconds: result.duration,
  };
}

process.on('message', (message: LoadRequest) => {
  runLoad(message).then(
    (reply) => process.send?.(reply),
    (error: unknown) => process.send?.({ type: 'failure', message: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
