import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Options } from 'tsup';

/**
 * One tsup entry in the shape every package uses: ESM only, `.d.ts`, source maps, and
 * `__PACKAGE_VERSION__` read from the package's own package.json so `VERSION` needs no hand edits.
 */
export function packageTsupEntry(directory: string, options: Options): Options {
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as {
    version: string;
  };
  return {
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    outDir: 'dist',
    define: { __PACKAGE_VERSION__: JSON.stringify(manifest.version) },
    ...options,
  };
}
