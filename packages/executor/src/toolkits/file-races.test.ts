import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ToolResult } from '@mtpx/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { createExecutor } from '../executor';
import { fileToolkit } from './file';

// Issue 13: swap a path component for a symbolic link out of the root while the file tools
// use it, as an attacker on the same machine would. A worker thread flips the path as fast
// as it can; every read, write and list in the meantime must stay inside the root.
// MTPX_TEST_VOLUME: the share of that volume this run takes (vitest.shared.ts).
const races = Number(
  process.env.FILE_RACES ?? Math.ceil(1_000 * Number(process.env.MTPX_TEST_VOLUME ?? 1)),
);
const secret = 'SECRET-OUTSIDE';

const base = mkdtempSync(join(tmpdir(), 'mtpx-races-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** What the attacker flips: the names to rename in a loop, in order. */
type Flip =
  | { renames: Array<[string, string]> }
  | { retarget: { link: string; targets: string[] } };

/** Starts a worker that flips the path until `stop` is called. */
function attacker(flip: Flip): { stop: () => Promise<void> } {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `
    const { renameSync, symlinkSync, rmSync } = require('node:fs');
    const { workerData } = require('node:worker_threads');
    const { flag, flip } = workerData;
    let turn = 0;
    while (Atomics.load(flag, 0) === 0) {
      try {
        if (flip.renames) {
          const [from, to] = flip.renames[turn++ % flip.renames.length];
          renameSync(from, to);
        } else {
          const { link, targets } = flip.retarget;
          const next = link + '.next';
          rmSync(next, { force: true });
          symlinkSync(targets[turn++ % targets.length], next);
          renameSync(next, link);
        }
      } catch {}
    }
    `,
    { eval: true, workerData: { flag, flip } },
  );
  return {
    stop: async () => {
      Atomics.store(flag, 0, 1);
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

/** A fresh root and outside directory for one case. */
function layout(name: string) {
  const root = join(base, name, 'root');
  const outside = join(base, name, 'outside');
  mkdirSync(join(outside, 'dir'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), secret);
  writeFileSync(join(outside, 'dir', 'f.txt'), secret);
  writeFileSync(join(outside, 'dir', 'outside-only.txt'), secret);
  mkdirSync(join(root, '.inner'), { recursive: true });
  writeFileSync(join(root, '.inner', 'f.txt'), 'inside');
  return { root, outside };
}

/** What lies outside the root (names, sizes and change times), to see whether anything changed. */
function outsideState(outside: string): string {
  return readdirSync(outside, { recursive: true })
    .map(String)
    .sort()
    .map((entry) => {
      const info = statSync(join(outside, entry));
      return `${entry}:${info.size}:${info.mtimeMs}`;
    })
    .join('\n');
}

type Operation = 'read' | 'write' | 'list';

/** Runs `races` operations while the attacker flips; counts escapes. */
async function race(
  root: string,
  outside: string,
  flip: Flip,
  operation: Operation,
  target: { dir: string; file: string },
) {
  const executor = createExecutor({ tools: [fileToolkit({ root })] });
  const before = outsideState(outside);
  const { stop } = attacker(flip);
  let escapes = 0;
  let succeeded = 0;
  try {
    for (let attempt = 0; attempt < races; attempt++) {
      const call =
        operation === 'read'
          ? { name: 'file.read_file', arguments: { path: target.file } }
          : operation === 'write'
            ? {
                name: 'file.write_file',
                arguments: { path: `${target.dir}/new.txt`, content: `w${attempt}` },
              }
            : { name: 'file.list_files', arguments: { path: target.dir } };
      const [result] = (await executor.executeToolCalls([{ id: `call_${attempt}`, ...call }])) as [
        ToolResult,
      ];
      if (result.success) succeeded++;
      const text = JSON.stringify(result.output);
      if (text.includes(secret) || text.includes('outside-only')) escapes++;
      if (operation === 'write' && outsideState(outside) !== before) {
        escapes++;
        break;
      }
    }
  } finally {
    await stop();
  }
  return { escapes, succeeded };
}

describe.runIf(process.platform === 'linux')(
  `file toolkit confinement under ${races} swap races per case`,
  () => {
    const operations: Operation[] = ['read', 'write', 'list'];

    it.each(operations)(
      'a directory component swapped for a link out of the root: %s',
      async (operation) => {
        const { root, outside } = layout(`dir-${operation}`);
        mkdirSync(join(root, 'real'));
        writeFileSync(join(root, 'real', 'f.txt'), 'inside');
        symlinkSync(join(outside, 'dir'), join(root, 'link'));
        const d = join(root, 'd');
        const flip: Flip = {
          renames: [
            [join(root, 'real'), d],
            [d, join(root, 'real')],
            [join(root, 'link'), d],
            [d, join(root, 'link')],
          ],
        };
        const { escapes } = await race(root, outside, flip, operation, {
          dir: 'd',
          file: 'd/f.txt',
        });
        expect(escapes).toBe(0);
      },
      120_000,
    );

    it.each(operations)(
      'a file swapped for a link out of the root: %s',
      async (operation) => {
        const { root, outside } = layout(`file-${operation}`);
        writeFileSync(join(root, 'real.txt'), 'inside');
        symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
        symlinkSync(join(outside, 'dir'), join(root, 'dirlink'));
        const f = join(root, 'f.txt');
        const flip: Flip = {
          renames: [
            [join(root, 'real.txt'), f],
            [f, join(root, 'real.txt')],
            [join(root, 'link.txt'), f],
            [f, join(root, 'link.txt')],
          ],
        };
        const target =
          operation === 'list' ? { dir: '.', file: 'f.txt' } : { dir: '.', file: 'f.txt' };
        const result =
          operation === 'write'
            ? await raceWrite(root, outside, flip)
            : await race(root, outside, flip, operation, target);
        expect(result.escapes).toBe(0);
      },
      120_000,
    );

    it.each(operations)(
      'a link retargeted between inside and outside the root: %s',
      async (operation) => {
        const { root, outside } = layout(`retarget-${operation}`);
        const link = join(root, 'l');
        symlinkSync(join(root, '.inner'), link);
        const flip: Flip = {
          retarget: { link, targets: [join(root, '.inner'), join(outside, 'dir')] },
        };
        const { escapes, succeeded } = await race(root, outside, flip, operation, {
          dir: 'l',
          file: 'l/f.txt',
        });
        expect(escapes).toBe(0);
        expect(succeeded).toBeGreaterThanOrEqual(0);
      },
      120_000,
    );
  },
);

/** Writes to the swapped file itself: the outside file must never change. */
async function raceWrite(root: string, outside: string, flip: Flip) {
  const executor = createExecutor({ tools: [fileToolkit({ root })] });
  const before = outsideState(outside);
  const { stop } = attacker(flip);
  let escapes = 0;
  try {
    for (let attempt = 0; attempt < races; attempt++) {
      await executor.executeToolCalls([
        {
          id: `call_${attempt}`,
          name: 'file.write_file',
          arguments: { path: 'f.txt', content: `w${attempt}`, append: attempt % 2 === 1 },
        },
      ]);
      if (outsideState(outside) !== before) {
        escapes++;
        break;
      }
    }
  } finally {
    await stop();
  }
  return { escapes };
}
