import { appendFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InternalError } from '@mtpx/mpl';
import { describe, expect, it } from 'vitest';
import { WalSync } from './wal-sync';

async function log() {
  const path = join(await mkdtemp(join(tmpdir(), 'mpl-wal-sync-')), 'provenance.db-wal');
  appendFileSync(path, 'frame 1\n');
  return path;
}

describe('WalSync', () => {
  it('makes each commit durable with a sync that began after it, shared by the commits made meanwhile', async () => {
    const sync = new WalSync(await log());
    // The first commit starts a sync at once; the nine made while it runs share the next.
    const first = sync.durable();
    const rest = Array.from({ length: 9 }, () => sync.durable());
    await Promise.all([first, ...rest]);
    expect(sync.stats).toMatchObject({ syncs: 2, commits: 10 });
    expect(sync.stats.seconds).toBeGreaterThan(0);
    await sync.durable();
    expect(sync.stats).toMatchObject({ syncs: 3, commits: 11 });
    await sync.close();
  });

  it('close waits for the sync under way', async () => {
    const sync = new WalSync(await log());
    let synced = false;
    const durable = sync.durable().then(() => {
      synced = true;
    });
    await sync.close();
    expect(synced).toBe(true);
    await durable;
  });

  it('a log that cannot be synced fails every waiting and later commit, for good', async () => {
    const sync = new WalSync(join(await mkdtemp(join(tmpdir(), 'mpl-wal-sync-')), 'missing-wal'));
    const first = sync.durable();
    await expect(first).rejects.toBeInstanceOf(InternalError);
    await expect(first).rejects.toThrow(/could not be synced to disk.*Reopen the store/);
    await expect(sync.durable()).rejects.toBeInstanceOf(InternalError);
    expect(sync.stats.syncs).toBe(0);
    await sync.close();
  });
});
