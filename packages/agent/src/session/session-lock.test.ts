import { mkdtemp, open, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFileSessionStore } from './json-file-session-store';
import { newSession } from './session';
import { nodeFileSystem, type SessionFileSystem } from './session-file-system';

const deadPid = 4194305; // above Linux's pid_max: never running

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('the lock of a JSON-file session', () => {
  it.each([
    ['aged by its mtime', nodeFileSystem.modifiedAt],
    ['aged from when it was first seen', undefined],
  ])(
    'a lock seen before its text is held (%s): no lost update in a widened window',
    async (_, modifiedAt) => {
      const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-lock-'));
      const seed = new JsonFileSessionStore({ directory });
      await seed.save(newSession('s', 'ada'));
      const base = await seed.get('s', { userId: 'ada' });
      if (base === undefined) throw new Error('seeded session missing');

      // The first writer creates its lock, and writes the lock's text only once the second
      // writer has read the lock while it was still empty (the window the old code lost in).
      const secondSawEmptyLock = deferred();
      const lockCreated = deferred();
      const slowLock: SessionFileSystem = {
        ...nodeFileSystem,
        createExclusive: async (path, text) => {
          const handle = await open(path, 'wx');
          lockCreated.resolve();
          try {
            await secondSawEmptyLock.promise;
            await handle.writeFile(text, 'utf8');
          } finally {
            await handle.close();
          }
        },
      };
      const watching: SessionFileSystem = {
        ...nodeFileSystem,
        modifiedAt,
        readFile: async (path) => {
          const text = await nodeFileSystem.readFile(path);
          if (path.endsWith('.lock') && text === '') secondSawEmptyLock.resolve();
          return text;
        },
      };
      const first = new JsonFileSessionStore({ directory, fileSystem: slowLock });
      const second = new JsonFileSessionStore({ directory, fileSystem: watching });
      const firstSave = first.save({ ...base, messages: [{ role: 'user', content: 'first' }] });
      // Wait until the lock exists before the second writer starts.
      await lockCreated.promise;
      const secondSave = second.save({ ...base, messages: [{ role: 'user', content: 'second' }] });
      const outcomes = await Promise.allSettled([firstSave, secondSave]);
      expect(outcomes[0]).toEqual({ status: 'fulfilled', value: undefined });
      expect(outcomes[1]).toMatchObject({
        status: 'rejected',
        reason: { code: 'session_conflict' },
      });
      const stored = await seed.get('s', { userId: 'ada' });
      expect(stored).toMatchObject({ version: 2, messages: [{ content: 'first' }] });
      expect(await readdir(directory)).toEqual(['s.json']);
    },
  );

  it('a save removes the lock only while it is still its own', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-lock-'));
    const lockPath = join(directory, 's.json.lock');
    const othersLock = `${join(directory, 's.json')}.${process.pid}.0a1b2c3d.lock\n${Date.now()}\n`;
    // While the save holds its lock, the lock is replaced (as a clearer that judged it
    // stale would, and another writer took it): the save must leave that lock alone.
    const replacing: SessionFileSystem = {
      ...nodeFileSystem,
      writeFileDurably: async (path, text) => {
        await writeFile(lockPath, othersLock);
        await nodeFileSystem.writeFileDurably(path, text);
      },
    };
    await new JsonFileSessionStore({ directory, fileSystem: replacing }).save(
      newSession('s', 'ada'),
    );
    expect(await readFile(lockPath, 'utf8')).toBe(othersLock);
  });

  it("the next open clears a dead writer's lock and a stale one, and keeps a live one", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-lock-'));
    const file = (name: string) => join(directory, name);
    await writeFile(file('dead.json.lock'), `${file('dead.json')}.${deadPid}.0a1b2c3d.lock\n1\n`);
    await writeFile(file('old.json.lock'), ''); // empty, its writer gone long ago
    const longAgo = new Date(Date.now() - 120_000);
    await utimes(file('old.json.lock'), longAgo, longAgo);
    await writeFile(file('fresh.json.lock'), ''); // being written right now
    const live = `${file('live.json')}.${process.pid}.0a1b2c3d.lock\n${Date.now()}\n`;
    await writeFile(file('live.json.lock'), live);
    expect(await new JsonFileSessionStore({ directory }).get('dead')).toBeUndefined();
    expect((await readdir(directory)).sort()).toEqual(['fresh.json.lock', 'live.json.lock']);
  });

  it("a save clears a dead writer's lock and goes on", async () => {
    const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-lock-'));
    const store = new JsonFileSessionStore({ directory });
    await store.save(newSession('s', 'ada'));
    const lockPath = join(directory, 's.json.lock');
    await writeFile(
      lockPath,
      `${join(directory, 's.json')}.${deadPid}.0a1b2c3d.lock\n${Date.now()}\n`,
    );
    const current = await store.get('s', { userId: 'ada' });
    await store.save({ ...(current as ReturnType<typeof newSession>) });
    expect((await store.get('s', { userId: 'ada' }))?.version).toBe(2);
    expect(await readdir(directory)).toEqual(['s.json']);
  });
});
