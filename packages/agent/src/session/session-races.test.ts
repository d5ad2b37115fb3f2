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
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.stdin.end();
    });
  /** Sends `race`, and answers every line up to `done` (or the process's end). */
  const race = async (count: number, label: string, onLine?: (line: string) => void) => {
    const exited = new Promise<string>((resolve) => child.once('exit', () => resolve('exited')));
    const answers: string[] = [];
    child.stdin.write(`race ${count} ${label}\n`);
    for (;;) {
      const ready = lines.shift();
      const line =
        ready ??
        (await Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), exited]));
      if (line === 'done' || line === 'exited') return answers;
      answers.push(line);
      onLine?.(line);
    }
  };
  const kill = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  return { ask, close, race, kill };
}

interface RaceOutcome {
  /** Acknowledged saves: the message each added, by the version it stored. */
  saved: Map<number, string>;
  duplicates: string[];
  /** Refusals that are not a session_conflict the other writer's save explains. */
  unexplained: string[];
}

/** Reads both writers' answers: which versions were acknowledged, and why any was refused. */
function outcomeOf(answers: Record<string, string[]>): RaceOutcome {
  const saved = new Map<number, string>();
  const byWriter = new Map<string, Set<number>>();
  const duplicates: string[] = [];
  for (const [label, lines] of Object.entries(answers)) {
    const versions = new Set<number>();
    byWriter.set(label, versions);
    for (const line of lines) {
      const [kind, message = '', version = ''] = line.split(' ');
      if (kind !== 'saved') continue;
      const previous = saved.get(Number(version));
      if (previous !== undefined) duplicates.push(`${previous} and ${message} as ${version}`);
      saved.set(Number(version), message);
      versions.add(Number(version));
    }
  }
  const unexplained: string[] = [];
  for (const [label, lines] of Object.entries(answers)) {
    for (const line of lines) {
      const [kind, , code, from] = line.split(' ');
      if (kind !== 'failed') continue;
      // Refused from version `from`: the other writer must have stored `from + 1`.
      const others = [...byWriter].filter(([other]) => other !== label);
      const explained = others.some(([, versions]) => versions.has(Number(from) + 1));
      if (code !== 'session_conflict' || !explained) unexplained.push(line);
    }
  }
  return { saved, duplicates, unexplained };
}

/** Every acknowledged save is in the stored copy, at the place its version says. */
function lostSaves(saved: Map<number, string>, messages: Array<{ content: unknown }>): string[] {
  return [...saved]
    .filter(([version, message]) => messages[version - 1]?.content !== message)
    .map(([version, message]) => `${message} (version ${version})`);
}

/** How many times the two-process race runs (the acceptance run uses 20). */
const raceRuns = Number(process.env.MTPX_SESSION_RACE_RUNS ?? 2);
const raceSaves = 300;

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

describe(`two processes × ${raceSaves} saves of one session, ${raceRuns} runs`, () => {
  it('no acknowledged save is lost: versions run 1..K, every refusal is a conflict the other explains', async () => {
    for (let run = 0; run < raceRuns; run++) {
      const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-race-'));
      const alpha = writer(directory, 'ada');
      const beta = writer(directory, 'ada');
      try {
        await Promise.all([alpha.ask('load'), beta.ask('load')]);
        const [alphaLines, betaLines] = await Promise.all([
          alpha.race(raceSaves, 'alpha'),
          beta.race(raceSaves, 'beta'),
        ]);
        expect(alphaLines.length + betaLines.length).toBe(2 * raceSaves);
        const { saved, duplicates, unexplained } = outcomeOf({
          alpha: alphaLines,
          beta: betaLines,
        });
        expect({ run, duplicates, unexplained }).toEqual({ run, duplicates: [], unexplained: [] });
        const versions = [...saved.keys()].sort((a, b) => a - b);
        expect(versions).toEqual(versions.map((_, index) => index + 1));
        const stored = await new JsonFileSessionStore({ directory }).get('plans', {
          userId: 'ada',
        });
        expect(stored?.version).toBe(versions.length);
        expect(lostSaves(saved, stored?.messages ?? [])).toEqual([]);
        expect(stored?.messages).toHaveLength(versions.length);
      } finally {
        await Promise.all([alpha.close(), beta.close()]);
      }
      expect((await readdir(directory)).filter((name) => !name.endsWith('.json'))).toEqual([]);
    }
  }, 600_000);

  it('writers killed (kill -9) mid-race: the next save and the next open leave no lock behind', async () => {
    for (let run = 0; run < Math.max(1, Math.ceil(raceRuns / 2)); run++) {
      const directory = await mkdtemp(join(tmpdir(), 'mtpx-session-race-'));
      const alpha = writer(directory, 'ada');
      const beta = writer(directory, 'ada');
      try {
        await Promise.all([alpha.ask('load'), beta.ask('load')]);
        // Alpha dies first (beta's next saves must clear its lock), then beta.
        let alphaSaved = 0;
        let betaSaved = 0;
        const [alphaLines, betaLines] = await Promise.all([
          alpha.race(raceSaves, 'alpha', (line) => {
            if (line.startsWith('saved') && ++alphaSaved === 40 + run * 7) void alpha.kill();
          }),
          beta.race(raceSaves, 'beta', (line) => {
            if (line.startsWith('saved') && ++betaSaved === 120 + run * 11) void beta.kill();
          }),
        ]);
        const { saved, duplicates, unexplained } = outcomeOf({
          alpha: alphaLines,
          beta: betaLines,
        });
        expect({ run, duplicates, unexplained }).toEqual({ run, duplicates: [], unexplained: [] });
        // The next open clears what the dead writers left; nothing acknowledged is lost.
        const store = new JsonFileSessionStore({ directory });
        const stored = await store.get('plans', { userId: 'ada' });
        expect((await readdir(directory)).filter((name) => !name.endsWith('.json'))).toEqual([]);
        expect(stored?.version).toBeGreaterThanOrEqual(Math.max(...saved.keys()));
        expect(lostSaves(saved, stored?.messages ?? [])).toEqual([]);
        if (stored !== undefined) await store.save(stored);
        expect((await store.get('plans', { userId: 'ada' }))?.version).toBe(
          (stored?.version ?? 0) + 1,
        );
      } finally {
        await Promise.all([alpha.close(), beta.close()]);
      }
    }
  }, 600_000);
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
