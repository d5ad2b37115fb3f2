/**
 * The server the MCP conformance suite (`@modelcontextprotocol/conformance`) and the MCP
 * Inspector are run against in CI (`.ci/mcp-conformance.sh`): everything the suite's
 * server scenarios call by name, built only on the public API of `@mtpx/mcp`. A module
 * `mtpx-mcp` can serve over stdio; `serve-http.ts` serves it over Streamable HTTP.
 */
import { createMcpServer, type McpToolServer } from '@mtpx/mcp';
import { prompts, resources, resourceTemplates } from './fixture-content';
import { contentTools } from './fixture-content-tools';
import { inputRequiredPrompt, inputRequiredTools } from './fixture-input-required';
import { roundTools } from './fixture-round-tools';

export const server: McpToolServer = createMcpServer({
  name: 'mtpx-conformance-fixture',
  version: '1.0.0',
  title: 'MTPX conformance fixture',
  tools: [...contentTools(), ...roundTools(() => server), ...inputRequiredTools()],
  prompts: [...prompts, inputRequiredPrompt],
  resources,
  resourceTemplates,
  // Every tool here only reads or talks back; none needs the policy's confirmation round.
  policy: { defaults: { read_only: 'allow', write: 'allow', destructive: 'allow' } },
});

export default server;
