import type { Session } from '@mtpx/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScript } from './__fixtures__/child-process';
import { createTestSchema, type TestSchema } from './__fixtures__/test-database';
import { PostgresSessionStore } from './index';

let database: TestSchema;
let store: PostgresSessionStore;

beforeAll(async () => {
  database = await createTestSchema();
  store = new PostgresSessionStore({ pool: database.pool, schema: database.schema });
});
afterAll(async () => {
  await store.close();
  await database.drop();
});

function session(sessionId: string, userId: string | null, version?: number): Session {
  const now = new Date().toISOString();
  return {
    session_id: sessionId,
    user_id: userId,
    messages: [{ role: 'user', content: 'Hello' }],
    runs: [],
    ...(version === undefined ? {} : { version }),
    created_at: now,
    updated_at: now,
  };
}

describe('PostgresSessionStore', () => {
  it('stores a session with version 1, then each save that read the latest version moves it on', async () => {
    await store.save(session('s-1', 'ada'));
    const first = (await store.get('s-1', { userId: 'ada' })) as Session;
    expect(first).toMatchObject({ session_id: 's-1', user_id: 'ada', version: 1 });
    await store.save({
      ...first,
      messages: [...first.messages, { role: 'user', content: 'Again' }],
    });
    const second = (await store.get('s-1', { userId: 'ada' })) as Session;
    expect(second.version).toBe(2);
    expect(second.messages).toHaveLength(2);
  });

  it('refuses a stale save with session_conflict and keeps the newer copy', async () => {
    await store.save(session('s-2', 'ada'));
    const read = (await store.get('s-2', { userId: 'ada' })) as Session;
    await store.save({ ...read, messages: [] });
    await expect(store.save({ ...read, runs: [] })).rejects.toMatchObject({
      code: 'session_conflict',
    });
    await expect(store.save(session('s-2', 'ada'))).rejects.toMatchObject({
      code: 'session_conflict',
    });
    expect(await store.get('s-2', { userId: 'ada' })).toMatchObject({ version: 2, messages: [] });
  });

  it("refuses another user's reads, saves and deletes, and the owner keeps her session", async () => {
    await store.save(session('s-3', 'ada'));
    await expect(store.get('s-3', { userId: 'mallory' })).rejects.toMatchObject({
      code: 'session_access_denied',
    });
    // A new copy over a stored one is stale first of all (the version rule comes first).
    await expect(store.save(session('s-3', 'mallory'))).rejects.toMatchObject({
      code: 'session_conflict',
    });
    await expect(store.save(session('s-3', 'mallory', 1))).rejects.toMatchObject({
      code: 'session_access_denied',
    });
    await expect(store.delete('s-3', { userId: 'mallory' })).rejects.toMatchObject({
      code: 'session_access_denied',
    });
    expect(await store.get('s-3', { userId: 'ada' })).toMatchObject({ user_id: 'ada', version: 1 });
    expect(await store.delete('s-3', { userId: 'ada' })).toBe(true);
    expect(await store.get('s-3', { userId: 'ada' })).toBeUndefined();
    expect(await store.delete('s-3', { userId: 'ada' })).toBe(false);
  });

  it('reports a stored row that is not a session as invalid_session', async () => {
    await store.get('s-0');
    await database.pool.query(
      `INSERT INTO "${database.schema}".mtpx_sessions (session_id, user_id, version, data) VALUES ('bad', NULL, 1, '{"session_id":')`,
    );
    await expect(store.get('bad')).rejects.toMatchObject({ code: 'invalid_session' });
  });

  it('session race across two processes: one run saves, the other gets session_conflict, the owner keeps her session', {
    timeout: 120_000,
  }, async () => {
    await store.save(session('chat', 'ada'));
    const args = (label: string) => [
      database.connectionString,
      database.schema,
      'chat',
      'ada',
      label,
    ];
    const racers = [
      startScript('session-race-child.ts', args('a')),
      startScript('session-race-child.ts', args('b')),
    ];
    // Both runs have read version 1 and are inside their tool call.
    await Promise.all(racers.map((racer) => racer.line(/^waiting$/)));
    for (const racer of racers) racer.send('go');
    const outcomes = await Promise.all(racers.map((racer) => racer.line(/^(saved|error .*)$/)));
    await Promise.all(racers.map((racer) => racer.exited));
    expect(outcomes.map((match) => match[1]).sort()).toEqual(['error session_conflict', 'saved']);

    const winner = outcomes[0]?.[1] === 'saved' ? 'a' : 'b';
    const stored = (await store.get('chat', { userId: 'ada' })) as Session;
    expect(stored.version).toBe(2);
    expect(stored.user_id).toBe('ada');
    expect(stored.runs).toHaveLength(1);
    expect(stored.messages.map((message) => message.content)).toEqual([
      'Hello',
      `Message from ${winner}`,
      null,
      'go',
      `Noted by ${winner}.`,
    ]);
  });
});
