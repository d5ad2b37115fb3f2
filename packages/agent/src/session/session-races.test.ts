import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InMemorySessionStore } from './in-memory-session-store';
import { JsonFileSessionStore } from './json-file-session-store';
import { newSession } from './session';

/** One writer in its own process, driven line by line. */
function writer(directory: string, userId: string) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, '../__fixtures__/session-racer.ts'),
      directory,
      'plans',
      userId,
    ],
    { cwd: join(import.meta.dirname, '../..') },
  );
  const lines: string[] = [];
  const waiting: Array<(line: string) => void> = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      const next = waiting.shift();
      if (next === undefined) lines.push(line);
      else next(line);
    }
  });
  const ask = (command: string) => {
    const answer = new Promise<string>((resolve) => {
      const ready = lines.shift();
      if (ready === undefined) waiting.push(resolve);
      else resolve(ready);
    });
    child.stdin.write(`${command}\n`);
    return answer;
  };
  const close = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.stdin.end();
    });
  return { ask, close };
}

describe('sessions owned under concurrency (two processes, one JSON-file directory)', () => {
  it('the late writer gets session_conflict and the owner keeps her session', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-race-'));
    const ada = writer(directory, 'ada');
    const mallory = writer(directory, 'mallory');
    try {
      // Mallory loads the session before it exists; Ada creates and saves it.
      expect(await mallory.ask('load')).toBe('loaded 0');
      expect(await ada.ask('load')).toBe('loaded 0');
      expect(await ada.ask('save')).toBe('saved');
      // Mallory's late save would take the session over: it is refused.
      expect(await mallory.ask('save')).toBe('failed session_conflict');
      const store = new JsonFileSessionStore({ directory });
      const stored = await store.get('plans', { userId: 'ada' });
      expect(stored).toMatchObject({ user_id: 'ada', version: 1 });
      expect(stored?.messages.map((message) => message.content)).toEqual([
        expect.stringContaining('written by ada'),
      ]);
      await expect(store.get('plans', { userId: 'mallory' })).rejects.toMatchObject({
        code: 'session_access_denied',
      });
    } finally {
      await Promise.all([ada.close(), mallory.close()]);
    }
  }, 60_000);

  it('two writers of one version save at once: exactly one wins, the other conflicts', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-race-'));
    const first = writer(directory, 'ada');
    const second = writer(directory, 'ada');
    try {
      expect(await first.ask('load')).toBe('loaded 0');
      expect(await first.ask('save')).toBe('saved');
      expect(await first.ask('load')).toBe('loaded 1');
      expect(await second.ask('load')).toBe('loaded 1');
      const outcomes = await Promise.all([first.ask('save'), second.ask('save')]);
      expect(outcomes.sort()).toEqual(['failed session_conflict', 'saved']);
      const stored = await new JsonFileSessionStore({ directory }).get('plans', { userId: 'ada' });
      expect(stored?.version).toBe(2);
      expect(stored?.messages).toHaveLength(2);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  }, 60_000);
});

describe('session versions in one process', () => {
  it.each([
    ['in memory', async () => new InMemorySessionStore()],
    [
      'JSON files',
      async () =>
        new JsonFileSessionStore({ directory: await mkdtemp(join(tmpdir(), 'mtpx-session-')) }),
    ],
  ])(
    '%s: a stale copy is refused with session_conflict, another owner with access denied',
    async (_, make) => {
      const store = await make();
      const session = newSession('s', 'ada');
      await store.save(session);
      await expect(store.save(session)).rejects.toMatchObject({ code: 'session_conflict' });
      const current = await store.get('s', { userId: 'ada' });
      expect(current?.version).toBe(1);
      await store.save({ ...(current as typeof session), updated_at: new Date().toISOString() });
      await expect(
        store.save({ ...(current as typeof session), version: 2, user_id: 'mallory' }),
      ).rejects.toMatchObject({ code: 'session_access_denied' });
      expect((await store.get('s', { userId: 'ada' }))?.version).toBe(2);
    },
  );

  it('leftover temporary files of dead processes are removed on the next open', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-'));
    // A pid that cannot be running: above Linux's pid_max.
    await writeFile(join(directory, 's.json.4194305.0a1b2c3d.tmp'), '{"half":');
    await writeFile(join(directory, `s.json.${process.pid}.0a1b2c3d.tmp`), 'in flight');
    const store = new JsonFileSessionStore({ directory });
    expect(await store.get('s')).toBeUndefined();
    expect(await readdir(directory)).toEqual([`s.json.${process.pid}.0a1b2c3d.tmp`]);
  });
});
