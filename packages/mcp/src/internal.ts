// `@mtpx/mcp/internal`: the adapter's own helpers, kept reachable for sibling packages and
// apps but not part of the public surface. Each symbol is tagged `@internal` where it is
// declared.
export { isMcpTool } from './definitions/mcp-tool';
export { type InputRequestKind, inputRequestKind } from './input/input-requests';
export { toolResultToCallToolResult } from './server/create-mcp-server';
export { isMcpToolServer } from './server/mcp-tool-server';
