// Native addons for every Node.js runtime that uses one install.
//
// `pnpm install` compiles better-sqlite3 for the Node that ran it, into build/Release/. CI
// then runs the tests from the same node_modules on other runtimes (scripts/on-node.mjs),
// and a binary compiled for one Node ABI (`process.versions.modules`) does not load in
// another. The addon finds its binary through the `bindings` package, which tries
// build/Release/ first and lib/binding/node-v<abi>-<platform>-<arch>/ last. So this module
// keeps no binary in the former and one per ABI in the latter, and each runtime loads its
// own: the install's binary moves there, and a runtime's missing one is compiled by
// node-gyp against that runtime's headers (about a minute of one core), or copied from the
// machine's cache of earlier builds of the same addon version for the same ABI.
//
// Only new files are written into the package: pnpm hard-links the package's files from
// its store, so an existing file is renamed, never rewritten.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(import.meta.dirname, '..');

/** The native addons of the workspace: the package and the binary `bindings` loads. */
export const ADDONS = [{ name: 'better-sqlite3', binary: 'better_sqlite3.node' }];

/** The files node-gyp needs to compile an addon (no build output, no dependencies). */
const SOURCES = { 'better-sqlite3': ['binding.gyp', 'src', 'deps', 'package.json'] };

/** How long one compile may take before it is killed and reported. */
const COMPILE_TIMEOUT_MS = 10 * 60_000;

/** Where builds are kept between installs and clones on this machine. */
function cacheDirectory() {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: not a turbo task (run before the tasks)
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'mtpx-ts', 'native-addons');
}

/** The installed copies of each addon (one per version pnpm resolved). */
function installedAddons() {
  const store = join(root, 'node_modules', '.pnpm');
  if (!existsSync(store)) return [];
  const found = [];
  for (const { name, binary } of ADDONS) {
    const prefix = `${name.replace('/', '+')}@`;
    for (const entry of readdirSync(store)) {
      if (!entry.startsWith(prefix)) continue;
      const directory = join(store, entry, 'node_modules', name);
      if (existsSync(join(directory, 'package.json'))) found.push({ name, binary, directory });
    }
  }
  return found;
}

/**
 * The binary of `addon` (a folder of {@link installedAddons}) for the Node ABI `abi`:
 * where `bindings` looks for it last, so build/Release/ must not hold one.
 */
export function addonBinaryFor(directory, binary, abi) {
  return join(
    directory,
    'lib',
    'binding',
    `node-v${abi}-${process.platform}-${process.arch}`,
    binary,
  );
}

/** The ABI (`process.versions.modules`) of a Node binary. */
async function abiOf(node) {
  const { stdout } = await run(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' });
  return stdout.trim();
}

/**
 * Whether `node` loads the binary `file`; when it does not because it was compiled for
 * another ABI, that ABI (from Node's own message).
 */
async function loadCheck(node, file) {
  try {
    await run(node, ['-e', 'process.dlopen({ exports: {} }, process.argv[1])', file], {
      encoding: 'utf8',
    });
    return { loads: true };
  } catch (error) {
    const compiledFor = /NODE_MODULE_VERSION (\d+)\. This version/.exec(String(error.stderr));
    return { loads: false, compiledFor: compiledFor?.[1], message: String(error.stderr).trim() };
  }
}

/**
 * The environment node-gyp compiles in: `node` first on PATH (for node-gyp's children and
 * the addon's scripts), and `headers` as npm_config_nodedir, whatever its case. node-gyp
 * lets npm_config_* variables override its own arguments, and CI sets npm_config_nodedir
 * to the pipeline's Node: a compile for Node 22 then built against Node 26's headers.
 */
export function compileEnvironment(node, headers) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => key.toLowerCase() !== 'npm_config_nodedir'),
  );
  return { ...env, PATH: `${join(node, '..')}:${process.env.PATH}`, npm_config_nodedir: headers };
}

/** Compiles `addon` against the headers of `node` into `target`. */
async function compile(addon, { node, headers }, target) {
  const work = await mkdtemp(join(tmpdir(), `mtpx-${addon.name}-`));
  try {
    for (const entry of SOURCES[addon.name]) {
      await cp(join(addon.directory, entry), join(work, entry), { recursive: true });
    }
    const nodeGyp = join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
    await run(node, [nodeGyp, 'rebuild', '--release', `--nodedir=${headers}`], {
      cwd: work,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: COMPILE_TIMEOUT_MS,
      // node-gyp's own children (make, python) and the addon's scripts use this runtime.
      env: compileEnvironment(node, headers),
    });
    await mkdir(join(target, '..'), { recursive: true });
    await copyFile(join(work, 'build', 'Release', addon.binary), target);
  } catch (error) {
    throw new Error(
      `could not compile ${addon.name} for ${node} against ${headers}:\n${String(error.stderr ?? error.message).slice(-4000)}`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Makes every native addon of the workspace loadable by the Node binary `node`, whose
 * headers are in `headers` (a Node install prefix holding include/node/), beside the
 * runtimes that already load it. Resolves with one note per addon.
 *
 * @param {{ node: string, headers: string }} runtime
 * @returns {Promise<string[]>}
 */
export async function prepareNativeAddons({ node, headers }) {
  const abi = await abiOf(node);
  const notes = [];
  for (const addon of installedAddons()) {
    const { version } = JSON.parse(await readFile(join(addon.directory, 'package.json'), 'utf8'));
    const label = `${addon.name} ${version} for Node ABI ${abi}`;
    // The install's own binary: moved to its ABI's folder, so other runtimes skip it.
    const installed = join(addon.directory, 'build', 'Release', addon.binary);
    if (existsSync(installed)) {
      const check = await loadCheck(node, installed);
      const installedAbi = check.loads ? abi : check.compiledFor;
      if (!installedAbi) {
        throw new Error(`${addon.name}: ${installed} does not load:\n${check.message}`);
      }
      const moved = addonBinaryFor(addon.directory, addon.binary, installedAbi);
      await mkdir(join(moved, '..'), { recursive: true });
      await rename(installed, moved);
    }
    const target = addonBinaryFor(addon.directory, addon.binary, abi);
    const cached = join(
      cacheDirectory(),
      `${addon.name}-v${version}-node-v${abi}-${process.platform}-${process.arch}.node`,
    );
    // A binary left in the target folder that does not load (a failed or foreign build) is
    // replaced, never kept: it would fail every later run the same way.
    if (existsSync(target) && !(await loadCheck(node, target)).loads) await rm(target);
    if (existsSync(target)) {
      notes.push(`${label}: installed`);
    } else if (existsSync(cached) && (await loadCheck(node, cached)).loads) {
      await mkdir(join(target, '..'), { recursive: true });
      await copyFile(cached, target);
      notes.push(`${label}: from this machine's cache (${cached})`);
    } else {
      const started = Date.now();
      await compile(addon, { node, headers }, target);
      notes.push(`${label}: compiled in ${Math.round((Date.now() - started) / 1000)} s`);
    }
    const check = await loadCheck(node, target);
    if (!check.loads) throw new Error(`${label}: ${target} does not load:\n${check.message}`);
    if (!existsSync(cached)) {
      await mkdir(cacheDirectory(), { recursive: true });
      const partial = `${cached}.${process.pid}`;
      await copyFile(target, partial);
      await rename(partial, cached);
    }
  }
  return notes;
}
