// Native addons compiled once per check, not once per consumer project.
//
// A consumer project installed by check-packages resolves better-sqlite3 from the registry
// and, with no prebuilt binary download reachable here, compiles it with node-gyp: two to
// three minutes on a busy 2-core machine, once for @mtpx/mpl-proxy and again for every
// package that depends on it. `pnpm install` has already compiled the same addon for the
// workspace, from the same sources, against the same Node. This module puts that binary
// where the addon's own installer (prebuild-install) looks before it downloads or compiles
// (`<local prebuilds>/<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`), and returns
// the environment that points npm at it.
//
// Only the workspace's exact version gets a local prebuild: a consumer that resolves a
// newer release finds no file by that name and compiles it, so the check still proves
// that what users install builds.
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ADDONS, addonBinaryFor } from './native-addons.mjs';
import { run } from './package-checks.mjs';

/**
 * Writes a local prebuild of each native addon the workspace has compiled into
 * `directory`; resolves with the environment variables prebuild-install reads
 * (`npm_config_<name>_local_prebuilds`) and one note per addon.
 *
 * @param {string} root the workspace root.
 * @param {string} directory where the prebuild tarballs go.
 * @param {string} fromPackage a workspace package that depends on the addons.
 */
export async function localPrebuilds(root, directory, fromPackage) {
  const env = {};
  const notes = [];
  await mkdir(directory, { recursive: true });
  for (const { name, binary } of ADDONS) {
    const linked = join(root, fromPackage, 'node_modules', name);
    // Where the install put it, or where scripts/native-addons.mjs keeps this Node's build.
    const built = [
      join(linked, 'build', 'Release', binary),
      addonBinaryFor(linked, binary, process.versions.modules),
    ].find((file) => existsSync(file));
    if (!built) {
      notes.push(`${name}: not compiled in the workspace; consumers compile it`);
      continue;
    }
    const addon = await realpath(linked);
    const { version } = JSON.parse(await readFile(join(addon, 'package.json'), 'utf8'));
    const file = `${name}-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    // prebuild-install unpacks it into the package: the binary goes where node-gyp puts it.
    await run('tar', [
      '-czf',
      join(directory, file),
      '-C',
      addon,
      `--transform=s,.*,build/Release/${binary},`,
      relative(linked, built),
    ]);
    env[`npm_config_${name.replace(/[^a-zA-Z0-9]/g, '_')}_local_prebuilds`] = directory;
    notes.push(`${name} ${version}: the workspace's build serves consumers resolving that version`);
  }
  return { env, notes };
}
