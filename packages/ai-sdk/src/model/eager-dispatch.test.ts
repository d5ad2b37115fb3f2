// Eager dispatch through fromLanguageModel: a read-only call of a recorded stream starts
// while the stream is still arriving (the replay server holds the response's closing
// chunks back until the agent has started a call), and the write call of a response cut
// off by the output-token limit never runs. For each of the four real provider packages.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '@mtpx/agent';
import { afterEach, describe, expect, it } from 'vitest';
import { PROVIDER_REPLAYS } from '../replay/provider-replays';
import { startRecordedReplay } from '../replay/recorded-replay';
import type { ReplayServer } from '../replay/replay-server';
import { runSeed, type SeedRun } from '../replay/seed-run';

let server: ReplayServer | undefined;
let run: SeedRun | undefined;
afterEach(async () => {
  await server?.close();
  await run?.remove();
  server = undefined;
  run = undefined;
});

const callId = (event: AgentEvent) => ('callId' in event ? String(event.callId) : undefined);

describe.each(PROVIDER_REPLAYS)('$name', (replay) => {
  it('a read-only call starts while the recorded stream is still arriving', async () => {
    const seed = replay.seed();
    let started: () => void = () => {};
    const callStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const closing = replay.closing(seed.events);
    expect(closing).toBeGreaterThan(0);
    server = await startRecordedReplay(replay.api, [
      { events: seed.events, hold: { before: closing, until: callStarted } },
      { events: replay.final },
    ]);
    const order: string[] = [];
    run = await runSeed(replay.provider(server.url), (event) => {
      order.push(event.type);
      if (event.type === 'call-started') started();
    });
    expect(run.error).toBeUndefined();
    // The closing chunks were held until a call started: the call started mid-stream, and
    // the write call waited for the finished response (held, then released).
    const firstStart = order.indexOf('call-started');
    expect(firstStart).toBeGreaterThan(-1);
    expect(firstStart).toBeLessThan(order.indexOf('round-finished'));
    expect(order.indexOf('call-held')).toBeGreaterThan(-1);
    expect(order.indexOf('call-released')).toBeGreaterThan(firstStart);
    expect(run.output?.toolResults.every((result) => result.success)).toBe(true);
  });

  it('the write call of a response cut off by the output-token limit never runs', async () => {
    const seed = replay.seed();
    server = await startRecordedReplay(replay.api, [
      { events: replay.cutByLength(seed.events) },
      { events: replay.final },
    ]);
    run = await runSeed(replay.provider(server.url));
    expect(run.error).toBeUndefined();
    const first = run.events.find((event) => event.type === 'round-finished');
    expect(first).toMatchObject({ finishReason: 'length' });
    const results = run.output?.toolResults ?? [];
    const write = results[5];
    expect(write).toMatchObject({ tool_name: 'file.write_file', success: false, skipped: true });
    expect(
      run.events.some((event) => event.type === 'call-started' && callId(event) === write?.call_id),
    ).toBe(false);
    expect(existsSync(join(run.root, 'backup/notes.txt'))).toBe(false);
    // The read-only calls of the turn ran.
    expect(results.slice(0, 4).map((result) => result.output)).toEqual([12, 48, 16, 31]);
  });
});
