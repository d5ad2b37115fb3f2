import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time of any file under `directory` (0 when it does not exist). */
function newestChange(directory: string): number {
  if (!existsSync(directory)) return 0;
  let newest = 0;
  for (const entry of readdirSync(directory, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * The server, CLI and browser tests use the built web app and `mtpx-inspector` bin. Turbo builds the package before
 * its tests (see turbo.json); when the tests are run directly and `dist/` is missing or
 * older than `src/`, build it here. Never rebuild a fresh `dist/`: other packages' tests
 * may be importing it at the same moment, and tsup cleans the folder first.
 */
export default function buildPackageWhenStale(): void {
  const directory = import.meta.dirname;
  const built = existsSync(join(directory, 'dist/web/app.js'))
    ? newestChange(join(directory, 'dist'))
    : 0;
  if (built >= newestChange(join(directory, 'src'))) return;
  execFileSync(join(directory, '../../node_modules/.bin/tsup'), ['--silent'], {
    cwd: directory,
    stdio: 'inherit',
  });
}
