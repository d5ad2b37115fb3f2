import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { scriptedProvider } from '@mtpx/providers/testing';
import { describe, expect, it } from 'vitest';
import { finalTurn, seedQuestion, seedTurn, signal } from '../__fixtures__/seed';
import {
  AgentError,
  createAgent,
  InMemorySessionStore,
  JsonFileSessionStore,
  type Session,
  type SessionFileSystem,
} from '../index';
import { newSession } from './session';

const tools = [calculatorToolkit()];

const temporaryDirectory = () => mkdtemp(join(tmpdir(), 'mtpx-sessions-'));

describe('sessions', () => {
  it('continue a conversation: the next run sees the messages, and may $ref results of earlier runs', async () => {
    const provider = scriptedProvider([
      seedTurn(),
      finalTurn,
      {
        toolCalls: [
          { id: 'call_5', name: 'calculator.multiply', arguments: { a: { $ref: 'call_4' }, b: 2 } },
        ],
      },
      { text: 'Twice that is 62.' },
    ]);
    const sessionStore = new InMemorySessionStore();
    const agent = createAgent({ provider, tools, sessionStore });
    const first = await agent.run(seedQuestion, { sessionId: 'chat-1', userId: 'ada' });
    expect(first.session_id).toBe('chat-1');
    const second = await agent.run('And twice that?', { sessionId: 'chat-1', userId: 'ada' });

    expect(second.final_text).toBe('Twice that is 62.');
    expect(second.tool_results.map((result) => result.output)).toEqual([62]);
    expect(provider.requests[2]?.messages.slice(1, 1 + first.messages.length)).toEqual(
      first.messages,
    );
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);

    const stored = (await sessionStore.get('chat-1', { userId: 'ada' })) as Session;
    expect(stored.user_id).toBe('ada');
    expect(stored.messages).toEqual(second.messages);
    expect(stored.runs.map((run) => [run.run_id, run.input, run.status, run.stop_reason])).toEqual([
      [first.run_id, seedQuestion, 'finished', 'final'],
      [second.run_id, 'And twice that?', 'finished', 'final'],
    ]);
    expect(stored.runs[0]?.tool_results).toHaveLength(4);
  });

  it('refuse a reader who is not the owner, with a typed error and nothing saved', async () => {
    const provider = scriptedProvider([{ text: 'Hello Ada.' }]);
    const sessionStore = new InMemorySessionStore();
    const agent = createAgent({ provider, tools, sessionStore });
    await agent.run('Hi, I am Ada.', { sessionId: 'private', userId: 'ada' });

    const events: string[] = [];
    const attempt = agent.run('What did Ada say?', {
      sessionId: 'private',
      userId: 'mallory',
      onEvent: (event) =>
        events.push(event.type === 'run-failed' ? `failed ${event.code}` : event.type),
    });
    await expect(attempt).rejects.toSatisfy(
      (error) => AgentError.isInstance(error) && error.code === 'session_access_denied',
    );
    expect(events).toEqual(['run-started', 'failed session_access_denied']);
    await expect(agent.run('?', { sessionId: 'private' })).rejects.toMatchObject({
      code: 'session_access_denied',
    });
    await expect(sessionStore.delete('private', { userId: 'mallory' })).rejects.toMatchObject({
      code: 'session_access_denied',
    });
    expect(provider.requests).toHaveLength(1);
    const stored = await sessionStore.get('private', { userId: 'ada' });
    expect(stored?.runs).toHaveLength(1);
  });

  it('take turns: two runs of one session never overwrite each other', async () => {
    const gate = signal();
    const provider = scriptedProvider(async (_request, turn) => {
      if (turn === 0) await gate.promise;
      return { text: `Answer ${turn + 1}.` };
    });
    const agent = createAgent({ provider, tools });
    const first = agent.run('One', { sessionId: 'busy' });
    const second = agent.run('Two', { sessionId: 'busy' });
    gate.resolve();
    await Promise.all([first, second]);
    const stored = await agent.sessionStore.get('busy');
    expect(stored?.messages.map((message) => message.content)).toEqual([
      'One',
      'Answer 1.',
      'Two',
      'Answer 2.',
    ]);
  });

  it('record a failed run, with the rounds it completed', async () => {
    const provider = scriptedProvider([seedTurn()]);
    const agent = createAgent({ provider, tools, maxRounds: 5 });
    await expect(agent.run(seedQuestion, { sessionId: 'broken' })).rejects.toMatchObject({
      code: 'script_exhausted',
    });
    const stored = await agent.sessionStore.get('broken');
    expect(stored?.runs[0]).toMatchObject({
      status: 'failed',
      error: expect.stringContaining('turn 2 was asked for'),
      rounds: 2,
    });
    expect(stored?.messages).toHaveLength(6);
  });
});

describe('JsonFileSessionStore', () => {
  it('saves and reads sessions as JSON files, one per session, named safely', async () => {
    const directory = await temporaryDirectory();
    const store = new JsonFileSessionStore({ directory });
    const agent = createAgent({
      provider: scriptedProvider([seedTurn(), finalTurn]),
      tools,
      sessionStore: store,
    });
    const output = await agent.run(seedQuestion, { sessionId: 'Chat/../1', userId: 'ada' });

    const files = await readdir(directory);
    expect(files).toEqual([`~${Buffer.from('Chat/../1').toString('hex')}.json`]);
    const reopened = new JsonFileSessionStore({ directory });
    const stored = await reopened.get('Chat/../1', { userId: 'ada' });
    expect(stored?.messages).toEqual(output.messages);
    await expect(reopened.get('Chat/../1', { userId: 'eve' })).rejects.toMatchObject({
      code: 'session_access_denied',
    });
    expect(await reopened.get('nobody')).toBeUndefined();
    expect(await reopened.delete('Chat/../1', { userId: 'ada' })).toBe(true);
    expect(await readdir(directory)).toEqual([]);
  });

  it('keeps the last saved version whole when a write fails half-way', async () => {
    const directory = await temporaryDirectory();
    const store = new JsonFileSessionStore({ directory });
    const saved = newSession('chat', 'ada');
    saved.messages.push({ role: 'user', content: 'First version' });
    await store.save(saved);
    saved.version = 1;

    const writtenTo: string[] = [];
    const failing: SessionFileSystem = {
      readFile: (path) => readFile(path, 'utf8'),
      writeFileDurably: async (path, text) => {
        writtenTo.push(path);
        await writeFile(path, text.slice(0, text.length / 2)); // half the file, then the disk "fails"
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
      rename: () => Promise.reject(new Error('not reached')),
      remove: (path) => import('node:fs/promises').then(({ rm }) => rm(path, { force: true })),
      makeDirectory: async () => {},
    };
    const broken = new JsonFileSessionStore({ directory, fileSystem: failing });
    const next = structuredClone(saved);
    next.messages.push({ role: 'user', content: 'Second version' });
    await expect(broken.save(next)).rejects.toMatchObject({
      code: 'session_store_failed',
      message: expect.stringContaining('ENOSPC'),
    });

    expect(writtenTo[0]).toMatch(/chat\.json\.\d+\.[0-9a-f]{8}\.tmp$/);
    expect(await readdir(directory)).toEqual(['chat.json']);
    const stored = await store.get('chat', { userId: 'ada' });
    expect(stored?.messages.map((message) => message.content)).toEqual(['First version']);
  });

  it('keeps the last saved version when the rename fails', async () => {
    const directory = await temporaryDirectory();
    const store = new JsonFileSessionStore({ directory });
    const saved = newSession('chat', undefined);
    await store.save(saved);
    saved.version = 1;
    const { rm } = await import('node:fs/promises');
    const failing: SessionFileSystem = {
      readFile: (path) => readFile(path, 'utf8'),
      writeFileDurably: (path, text) => writeFile(path, text),
      rename: () => Promise.reject(new Error('EXDEV: cross-device link not permitted')),
      remove: (path) => rm(path, { force: true }),
      makeDirectory: async () => {},
    };
    const next = { ...saved, messages: [{ role: 'user' as const, content: 'lost' }] };
    await expect(
      new JsonFileSessionStore({ directory, fileSystem: failing }).save(next),
    ).rejects.toMatchObject({
      code: 'session_store_failed',
    });
    expect(await readdir(directory)).toEqual(['chat.json']);
    expect((await store.get('chat'))?.messages).toEqual([]);
  });

  it("stays readable after a model's malformed call (no id, no name)", async () => {
    const directory = await temporaryDirectory();
    const agent = createAgent({
      provider: scriptedProvider([
        { toolCalls: [{ id: '', name: '', arguments: '{"a":' }] },
        { text: 'Sorry.' },
      ]),
      tools,
      sessionStore: new JsonFileSessionStore({ directory }),
    });
    const output = await agent.run('Hi', { sessionId: 'messy' });
    expect(output.tool_results[0]?.error_code).toBe('invalid_plan');
    const stored = await new JsonFileSessionStore({ directory }).get('messy');
    expect(stored?.messages).toEqual(output.messages);
  });

  it('reports a file that is not a session as invalid_session', async () => {
    const directory = await temporaryDirectory();
    await writeFile(join(directory, 'bad.json'), '{"session_id": "bad", "messages": 3');
    await writeFile(join(directory, 'odd.json'), '{"session_id": "odd", "messages": 3}');
    const store = new JsonFileSessionStore({ directory });
    await expect(store.get('bad')).rejects.toMatchObject({ code: 'invalid_session' });
    await expect(store.get('odd')).rejects.toMatchObject({
      code: 'invalid_session',
      message: expect.stringContaining('is not a valid session'),
    });
  });

  it('loses nothing already saved when the process is killed (kill -9) mid-write', async () => {
    const directory = await temporaryDirectory();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '../__fixtures__/session-writer.ts'),
        directory,
      ],
      { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let acknowledged = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, killSignal) => resolve(killSignal)),
    );
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const match = /^saved (\d+)$/.exec(line);
        if (match) acknowledged = Math.max(acknowledged, Number(match[1]));
      }
      if (acknowledged >= 25) child.kill('SIGKILL');
    });
    expect(await exited, stderr).toBe('SIGKILL');

    const stored = await new JsonFileSessionStore({ directory }).get('crash-test', {
      userId: 'ada',
    });
    expect(stored?.messages.length).toBeGreaterThanOrEqual(acknowledged);
    stored?.messages.forEach((message, index) => {
      expect(message.content?.startsWith(`${index + 1} `)).toBe(true);
    });
  }, 30_000);
});
