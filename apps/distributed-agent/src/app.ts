import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { type AgentEvent, createAgent } from '@mtpx/agent';
import { createRemoteTools } from '@mtpx/bullmq';
import { CliError, shouldColor, Terminal } from '@mtpx/example-kit';
import { isJsonObject } from '@mtpx/protocol';
import { scriptedProvider } from '@mtpx/providers/testing';
import { Redis, type RedisOptions } from 'ioredis';
import { QUESTION, scriptedTurns } from './scenario';
import { DEFAULTS } from './settings';
import { appTools, ledgerListKey } from './tools';
import { spawnWorkers, stopWorkers } from './worker-processes';

/** What the orchestrator was asked to do. */
export interface AppOptions {
  redisUrl: string;
  connection: RedisOptions;
  prefix: string;
  /** Local worker processes to start (0: use workers started elsewhere). */
  workers: number;
  killOne: boolean;
  json: boolean;
  latencyMs: number;
  stallMs: number;
  color: boolean | undefined;
}

/**
 * Runs the agent once with its tools on worker processes, and shows where each call ran:
 * which worker took it, which worker took it over after a kill, the answer and the ledger.
 * Resolves with the exit code: 0 when the model answered.
 */
export async function runApp(
  options: AppOptions,
  stdout: Writable,
  stderr: Writable,
): Promise<number> {
  const people = options.json ? stderr : stdout;
  const terminal = new Terminal(people, shouldColor(people, options.color));
  const { colors } = terminal;
  const location = { prefix: options.prefix, queue: DEFAULTS.queue };
  const redis = new Redis(options.connection);
  let workers: ChildProcess[] = [];
  const remote = createRemoteTools({
    connection: options.connection,
    ...location,
    tools: appTools(redis, location, options.latencyMs),
  });
  try {
    await redis.ping().catch((error: unknown) => {
      throw new CliError(`Redis does not answer at ${options.redisUrl} (${String(error)}).`);
    });
    if (options.workers > 0) {
      // A fresh ledger for a self-contained run.
      await redis.del(ledgerListKey(location));
      const flags = ['--redis', options.redisUrl, '--prefix', options.prefix];
      flags.push('--latency', String(options.latencyMs), '--stall-ms', String(options.stallMs));
      workers = await spawnWorkers(options.workers, flags, (line) =>
        terminal.line(colors.dim(line)),
      );
    } else if (options.killOne) {
      throw new CliError('--kill-one needs workers this app starts (--workers 1 or more).');
    }
    terminal.line(
      colors.bold('distributed-agent · tools on worker processes, calls carried by BullMQ'),
    );
    terminal.line(
      `${terminal.label('workers')}${workers.length > 0 ? `${workers.map((worker) => worker.pid).join(', ')} (started here)` : 'the ones you started'} · queue ${location.prefix}:${location.queue}`,
    );
    const agent = createAgent({
      provider: scriptedProvider(scriptedTurns, { latencyMs: 100, model: 'offline-script' }),
      tools: remote.tools,
    });
    const ranOn = new Map<string, number>();
    const seenWorkers = new Set<number>();
    const moved: string[] = [];
    let killed: number | undefined;
    const stream = agent.stream(QUESTION);
    for await (const event of stream) {
      if (options.json) stdout.write(`${JSON.stringify(event)}\n`);
      if (event.type !== 'call-progress') {
        describe(event);
        continue;
      }
      const data = event.progress.data;
      const pid = isJsonObject(data) && typeof data.worker === 'number' ? data.worker : undefined;
      if (pid === undefined) continue;
      seenWorkers.add(pid);
      const before = ranOn.get(event.callId);
      ranOn.set(event.callId, pid);
      if (before !== undefined && before !== pid) {
        moved.push(event.callId);
        terminal.line(`moved  ${event.callId}  worker ${before} → worker ${pid}`);
      } else {
        terminal.line(`runs   ${event.callId}  on worker ${pid}`);
      }
      const victim = workers.find((worker) => worker.pid === pid);
      if (options.killOne && killed === undefined && victim !== undefined) {
        killed = pid;
        victim.kill('SIGKILL');
        terminal.line(
          colors.bold(
            `killed worker ${pid} (kill -9) while it ran ${event.callId}: its calls move after the stall timeout (${options.stallMs} ms)`,
          ),
        );
      }
    }
    const output = await stream.result;
    const ledger = await redis.lrange(ledgerListKey(location), 0, -1);
    terminal.line();
    terminal.line(`${terminal.label('answer')}${output.finalText}`);
    terminal.line(
      `${terminal.label('calls')}${output.toolResults.length} on ${seenWorkers.size} worker${seenWorkers.size === 1 ? '' : 's'}${moved.length > 0 ? ` · moved after the kill: ${moved.join(', ')}` : ''}`,
    );
    terminal.line(
      `${terminal.label('ledger')}${ledger.length} entr${ledger.length === 1 ? 'y' : 'ies'}: ${ledger.join(' · ')}`,
    );
    return output.stopReason === 'final' ? 0 : 1;
  } finally {
    await stopWorkers(workers);
    await remote.close();
    // A self-contained run leaves nothing behind; with your own workers the queue stays.
    if (workers.length > 0) await deleteKeys(redis, `${location.prefix}:${location.queue}:*`);
    await redis.quit();
  }

  function describe(event: AgentEvent): void {
    if (event.type === 'call-started') {
      terminal.line(colors.dim(`queued ${event.callId}  ${event.toolName}`));
    } else if (event.type === 'call-finished') {
      const { result } = event;
      const shown = result.success ? JSON.stringify(result.output) : `failed: ${result.error}`;
      terminal.line(`done   ${event.callId}  → ${shown}`);
    }
  }
}

/** Deletes every key matching `pattern`. */
async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}
