import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolResult } from '@mtpx/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecutor } from '../executor';
import { ToolRegistry } from '../tools/tool-registry';
import { fileToolkit } from './file';

let base: string;
let root: string;
let outside: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mtpx-file-toolkit-'));
  root = join(base, 'workspace');
  outside = join(base, 'secrets');
  await mkdir(join(root, 'docs', 'deep'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(root, 'notes.txt'), 'Buy milk.\nCall Ada.\n');
  await writeFile(join(root, 'docs', 'plan.md'), '# Plan\nmilk first\n');
  await writeFile(join(root, 'docs', 'deep', 'x.txt'), 'MILK in caps\n');
  await writeFile(join(outside, 'key.txt'), 'hunter2\n');
  await symlink(join(outside, 'key.txt'), join(root, 'link-out.txt'));
  await symlink(outside, join(root, 'dir-out'));
  await symlink(join(root, 'notes.txt'), join(root, 'link-in.txt'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

const call = async (
  name: string,
  args: Record<string, unknown>,
  options: { writable?: boolean } = {},
) => {
  const executor = createExecutor({ tools: [fileToolkit({ root, ...options })] });
  const [result] = await executor.executeToolCalls([
    { id: 'call_1', name, arguments: args as never },
  ]);
  return result as ToolResult;
};

describe('the file toolkit', () => {
  it('reads, lists, searches and writes inside the root', async () => {
    expect((await call('file.read_file', { path: 'notes.txt' })).output).toBe(
      'Buy milk.\nCall Ada.\n',
    );
    expect((await call('file.read_file', { path: 'link-in.txt' })).output).toBe(
      'Buy milk.\nCall Ada.\n',
    );
    expect((await call('file.list_files', {})).output).toEqual({
      path: '.',
      entries: [
        { path: 'dir-out', type: 'symlink' },
        { path: 'docs', type: 'directory' },
        { path: 'link-in.txt', type: 'symlink' },
        { path: 'link-out.txt', type: 'symlink' },
        { path: 'notes.txt', type: 'file', size: 20 },
      ],
      truncated: false,
    });
    const recursive = (await call('file.list_files', { path: 'docs', recursive: true })).output as {
      entries: Array<{ path: string }>;
    };
    expect(recursive.entries.map((entry) => entry.path)).toEqual([
      'docs/deep',
      'docs/plan.md',
      'docs/deep/x.txt',
    ]);
    expect((await call('file.search_in_files', { query: 'milk' })).output).toEqual({
      query: 'milk',
      matches: [
        { path: 'notes.txt', line: 1, text: 'Buy milk.' },
        { path: 'docs/plan.md', line: 2, text: 'milk first' },
        { path: 'docs/deep/x.txt', line: 1, text: 'MILK in caps' },
      ],
      files_searched: 3,
      truncated: false,
    });
    const written = await call('file.write_file', { path: 'out/new.txt', content: 'héllo' });
    expect(written.output).toEqual({ path: 'out/new.txt', bytes_written: 6 });
    await call('file.write_file', { path: 'out/new.txt', content: '!', append: true });
    expect(await readFile(join(root, 'out', 'new.txt'), 'utf8')).toBe('héllo!');
  });

  it('refuses absolute paths, ".." and symbolic links that lead out of the root', async () => {
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['file.read_file', { path: join(outside, 'key.txt') }, 'is an absolute path'],
      ['file.read_file', { path: '../secrets/key.txt' }, 'contains ".."'],
      ['file.read_file', { path: 'docs/../../secrets/key.txt' }, 'contains ".."'],
      ['file.read_file', { path: 'link-out.txt' }, 'leads outside the workspace root'],
      ['file.read_file', { path: 'dir-out/key.txt' }, 'leads outside the workspace root'],
      ['file.list_files', { path: 'dir-out' }, 'leads outside the workspace root'],
      [
        'file.search_in_files',
        { query: 'hunter', path: 'dir-out' },
        'leads outside the workspace root',
      ],
      ['file.write_file', { path: '/tmp/evil.txt', content: 'x' }, 'is an absolute path'],
      [
        'file.write_file',
        { path: 'dir-out/new.txt', content: 'x' },
        'leads outside the workspace root',
      ],
      [
        'file.write_file',
        { path: 'link-out.txt', content: 'x' },
        'leads outside the workspace root',
      ],
      ['file.write_file', { path: '..\\secrets\\key.txt', content: 'x' }, 'contains ".."'],
    ];
    for (const [name, args, reason] of refusals) {
      const result = await call(name, args);
      expect(result.success, `${name} ${JSON.stringify(args)}`).toBe(false);
      expect(result.error).toContain(reason);
    }
    expect(await readFile(join(outside, 'key.txt'), 'utf8')).toBe('hunter2\n');
    const search = (await call('file.search_in_files', { query: 'hunter' })).output as {
      matches: unknown[];
    };
    expect(search.matches).toEqual([]); // links are never followed while walking
  });

  it('explains missing files, directories used as files, and files that are too large', async () => {
    expect((await call('file.read_file', { path: 'nope.txt' })).error).toBe(
      '"nope.txt" does not exist in the workspace; list the files to see what is there.',
    );
    expect((await call('file.read_file', { path: 'docs' })).error).toBe('"docs" is not a file.');
    expect((await call('file.list_files', { path: 'notes.txt' })).error).toBe(
      '"notes.txt" is not a directory.',
    );
    const executor = createExecutor({ tools: [fileToolkit({ root, maxReadBytes: 4 })] });
    const capped = createExecutor({ tools: [fileToolkit({ root, maxSearchFiles: 1 })] });
    const [search] = await capped.executeToolCalls([
      { id: 'c', name: 'file.search_in_files', arguments: { query: 'milk' } },
    ]);
    expect(search?.output).toMatchObject({ files_searched: 1, truncated: true });
    const [big] = await executor.executeToolCalls([
      { id: 'c', name: 'file.read_file', arguments: { path: 'notes.txt' } },
    ]);
    expect(big?.error).toMatch(/has 20 bytes, more than the 4 that can be read/);
  });

  it('marks write_file as a write, and leaves it out when not writable', () => {
    const specs = new ToolRegistry([fileToolkit({ root })]).list();
    expect(specs.map((spec) => [spec.name, spec.risk_level])).toEqual([
      ['file.list_files', 'read_only'],
      ['file.read_file', 'read_only'],
      ['file.search_in_files', 'read_only'],
      ['file.write_file', 'write'],
    ]);
    const readOnly = new ToolRegistry([fileToolkit({ root, writable: false })]).list();
    expect(readOnly.map((spec) => spec.name)).not.toContain('file.write_file');
    expect(() => fileToolkit({ root: '' })).toThrow(/root/);
  });

  it('reports a root that does not exist', async () => {
    const executor = createExecutor({ tools: [fileToolkit({ root: join(base, 'missing') })] });
    const [result] = await executor.executeToolCalls([
      { id: 'c', name: 'file.list_files', arguments: {} },
    ]);
    expect(result?.error).toMatch(/root directory is not available/);
  });
});
