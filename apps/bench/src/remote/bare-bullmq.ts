import { Queue, QueueEvents } from 'bullmq';
import type { DagNode } from '../rows/random-dag';
import { redisConnection } from './redis-keys';

/** The queue of row 7's bare BullMQ peer for a worker count (served by the same processes). */
export const bareQueueOf = (workers: number) => `bare-${workers}`;

/** How long the peer waits for one job's answer before the run fails. */
const answerWaitMs = 60_000;

/**
 * Row 7's peer: a small orchestrator written directly on BullMQ, the way its docs show —
 * `queue.add(name, data)` for each call the moment the calls it needs have answered, and
 * `job.waitUntilFinished(queueEvents)` for its answer (the answers of its dependencies go
 * in its data, as MTPX's `$ref`s do). No idempotency key, no validation, no run identity:
 * the floor a remote hop costs with BullMQ alone.
 */
export class BareOrchestrator {
  readonly #queue: Queue;
  readonly #events: QueueEvents;

  private constructor(queue: Queue, events: QueueEvents) {
    this.#queue = queue;
    this.#events = events;
  }

  static async start(prefix: string, queueName: string): Promise<BareOrchestrator> {
    const queue = new Queue(queueName, { connection: redisConnection, prefix });
    const events = new QueueEvents(queueName, { connection: redisConnection, prefix });
    // Each waiting job listens on the queue and the events (the docs' waitUntilFinished).
    queue.setMaxListeners(0);
    events.setMaxListeners(0);
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    return new BareOrchestrator(queue, events);
  }

  /** Runs the DAG (each node a job of `{ step, ms, inputs }`) and resolves with every answer. */
  run(nodes: readonly DagNode[]): Promise<unknown[]> {
    const answers: unknown[] = new Array(nodes.length);
    const unmet = nodes.map((node) => node.dependencies.length);
    const dependents: number[][] = nodes.map(() => []);
    for (const [index, node] of nodes.entries()) {
      for (const dependency of node.dependencies) dependents[dependency]?.push(index);
    }
    let left = nodes.length;
    return new Promise((resolve, reject) => {
      const start = async (index: number) => {
        const node = nodes[index] as DagNode;
        const inputs = node.dependencies.map((dependency) => answers[dependency]);
        const job = await this.#queue.add('dag.sleep', { step: index, ms: node.latencyMs, inputs });
        // Bounded, as MTPX's calls are (its deadline): a missed answer fails the run, not hangs it.
        answers[index] = await job.waitUntilFinished(this.#events, answerWaitMs);
        left -= 1;
        if (left === 0) resolve(answers);
        for (const next of dependents[index] as number[]) {
          unmet[next] = (unmet[next] as number) - 1;
          if (unmet[next] === 0) start(next).catch(reject);
        }
      };
      for (const [index] of nodes.entries()) if (unmet[index] === 0) start(index).catch(reject);
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.#events.close(), this.#queue.close()]);
  }
}
