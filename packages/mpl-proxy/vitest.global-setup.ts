import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** Builds dist/ (tsup) so tests can spawn the real `mpl` bin. */
export default function buildPackage(): void {
  const directory = import.meta.dirname;
  execFileSync(join(directory, '../../node_modules/.bin/tsup'), ['--silent'], {
    cwd: directory,
    stdio: 'inherit',
  });
}
