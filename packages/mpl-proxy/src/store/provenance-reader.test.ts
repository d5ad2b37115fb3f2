import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotFoundError, semanticHash, verifyChain } from '@mtpx/mpl';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openProvenanceReader } from './provenance-reader';
import { SqliteProvenanceStore } from './sqlite-provenance-store';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'mpl-reader-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('openProvenanceReader', () => {
  it('reads what the store wrote, `validated: false` included, and verifies it', async () => {
    const store = SqliteProvenanceStore.open({ dataDir: folder });
    const payload = { anything: 1 };
    const written = await store.append({
      plan_id: 'plan_1',
      stype: 'org.example.Unknown.v1',
      sem_hash: semanticHash(payload),
      payload,
      qom_profile: 'qom-basic',
      qom_passed: true,
      validated: false,
    });
    const reader = openProvenanceReader(folder);
    try {
      const chain = await reader.chain('plan_1', { payloads: true });
      expect(chain).toEqual([written]);
      expect(chain[0]?.validated).toBe(false);
      expect(verifyChain(chain).valid).toBe(true);
      expect(await reader.planIds()).toEqual(['plan_1']);
      expect(reader.path).toBe(join(folder, 'provenance.db'));
    } finally {
      await reader.close();
      await store.close();
    }
  });

  it('a folder without provenance.db is NotFoundError, and nothing is created', () => {
    const empty = join(folder, 'none');
    let thrown: unknown;
    try {
      openProvenanceReader(empty);
    } catch (error) {
      thrown = error;
    }
    expect(NotFoundError.isInstance(thrown)).toBe(true);
    expect(existsSync(empty)).toBe(false);
  });
});
