import { createMcpServer, type McpToolServer } from '@mtpx/mcp';
import { bookTable } from './booking-tool';

/** The server's name, as clients see it; the agent's tools carry it as a prefix. */
export const SERVER_NAME = 'restaurant';

/**
 * The restaurant's MCP server: one multi-round tool, `book_table`. The same server
 * object is served over Streamable HTTP (`serveMcp`) or stdio (`serveMcpStdio`), to
 * clients of either protocol era.
 */
export function createRestaurantServer(
  options: { onError?: (error: Error) => void } = {},
): McpToolServer {
  return createMcpServer({
    name: SERVER_NAME,
    version: '1.0.0',
    instructions: 'Book tables with book_table; it asks the user for the date and a confirmation.',
    tools: [bookTable],
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
