import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe('WalCheckpointer', () => {
  it('keeps the process alive while a store closes, when nothing else does', {
    timeout: 90_000,
  }, async () => {
    // A process whose last pending work is `await store.close()`: the checkpointer thread
    // is unref'd while it runs, so closing must hold the process until the thread exits
    // (otherwise Node ends it with exit code 13, its top-level await unsettled).
    const dataDir = await mkdtemp(join(tmpdir(), 'mpl-checkpointer-'));
    const store = new URL('./sqlite-provenance-store.ts', import.meta.url).href;
    const script = `
      const { SqliteProvenanceStore } = await import(${JSON.stringify(store)});
      const opened = SqliteProvenanceStore.open({ dataDir: ${JSON.stringify(dataDir)}, synchronous: 'normal' });
      for (let seq = 0; seq < 100; seq++)
        await opened.append({ plan_id: 'plan', invocation_id: null, stype: 'org.agent.TaskPlan.v1',
          method: null, sem_hash: 'sha256:' + '0'.repeat(64), payload: { seq },
          qom_profile: 'qom-basic', qom_passed: true });
      // The thread has started and run its checkpoint: it is idle now.
      while (!opened.checkpointStats?.checkpoints) await new Promise((resolve) => setTimeout(resolve, 10));
      await opened.close();
      console.log('closed');
    `;
    const file = join(dataDir, 'close.mjs');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', import.meta.resolve('tsx'), file],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(stdout.trim()).toBe('closed');
  });
});
