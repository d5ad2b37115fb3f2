import { readdirSync, readFileSync } from 'node:fs';
import { isJsonObject, safeParseJson } from '@mtpx/protocol';
import { type BfclFunction, bfclToolset } from './bfcl-tools';

const snapshots = new URL('../../data/github-mcp/toolsnaps/', import.meta.url);

/**
 * The GitHub MCP server's published tool definitions (`data/github-mcp/toolsnaps`, its
 * `__toolsnaps__` copied unchanged): name, description and input schema of each, in file
 * order. The MCP `annotations` are not sent to models.
 */
export function githubMcpTools(): BfclFunction[] {
  return readdirSync(snapshots)
    .filter((file) => file.endsWith('.snap'))
    .sort()
    .map((file) => {
      const parsed = safeParseJson(readFileSync(new URL(file, snapshots), 'utf8'));
      if (!parsed.ok || !isJsonObject(parsed.value)) {
        throw new Error(`data/github-mcp/toolsnaps/${file} is not a JSON object`);
      }
      const { name, description, inputSchema } = parsed.value;
      if (
        typeof name !== 'string' ||
        typeof description !== 'string' ||
        !isJsonObject(inputSchema)
      ) {
        throw new Error(
          `data/github-mcp/toolsnaps/${file} has no name, description or inputSchema`,
        );
      }
      return { name, description, parameters: inputSchema };
    });
}

/** Row 9's toolset: the GitHub MCP server's tools, then row 8's 29 BFCL functions. */
export function largeToolset(): BfclFunction[] {
  return [...githubMcpTools(), ...bfclToolset()];
}
