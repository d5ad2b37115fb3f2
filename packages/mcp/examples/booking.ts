/**
 * One multi-round booking tool, served once over Streamable HTTP, used by a 2026-07-28
 * client and by a 2025-era client. The tool asks for a date (form elicitation), then for a
 * confirmation, keeping the date in its signed request state; the user's answers come from
 * a script here (a terminal prompt in a real client).
 *
 * Run: pnpm --filter @mtpx/mcp run example:booking
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createExecutor } from '@mtpx/executor';
import {
  complete,
  createMcpServer,
  defineMcpTool,
  type ElicitHandler,
  formElicitation,
  inputRequired,
  type McpClientEra,
  mcpClientOptions,
  mcpTools,
  serveMcp,
} from '@mtpx/mcp';
import { z } from 'zod';

const DateAnswer = z.object({ date: z.iso.date() });
const Confirmation = z.object({ confirm: z.boolean() });

/** The tool: written once, served to both protocol eras. */
export const bookTable = defineMcpTool({
  name: 'book_table',
  description: 'Books a table at the restaurant, asking the user for the date and a confirmation.',
  input_schema: z.object({ name: z.string(), party: z.number().int().min(1) }),
  risk_level: 'write',
  round: ({ name, party }, context) => {
    const state = context.requestState as { date: string } | undefined;
    if (state === undefined) {
      const answer = context.accepted('date', DateAnswer);
      if (answer === undefined) {
        return inputRequired({
          date: formElicitation(`Which date for ${party}, ${name}?`, DateAnswer),
        });
      }
      return inputRequired(
        { confirm: formElicitation(`Book a table for ${party} on ${answer.date}?`, Confirmation) },
        { date: answer.date },
      );
    }
    if (context.accepted('confirm', Confirmation)?.confirm !== true) {
      return complete({ booked: false, reason: 'not confirmed' });
    }
    return complete({ booked: true, name, party, date: state.date });
  },
});

/** Answers the server's questions like a user who wants the 24th of December. */
export const scriptedUser: ElicitHandler = (params) => {
  if (params.mode === 'url') return { action: 'decline' };
  return 'date' in params.requestedSchema.properties
    ? { action: 'accept', content: { date: '2026-12-24' } }
    : { action: 'accept', content: { confirm: true } };
};

/** Books through an MCP client of the given era; resolves with the tool's output. */
export async function bookWith(url: URL, era: McpClientEra): Promise<unknown> {
  const client = new Client(
    { name: `booking-${era}`, version: '1.0.0' },
    mcpClientOptions({ era, elicit: true }),
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    const tools = await mcpTools(client, { prefix: 'restaurant.', elicit: scriptedUser });
    const [result] = await createExecutor({ tools }).executeToolCalls([
      { id: 'call_1', name: 'restaurant.book_table', arguments: { name: 'Ada', party: 4 } },
    ]);
    return result?.output;
  } finally {
    await client.close();
  }
}

export async function main(): Promise<void> {
  const server = createMcpServer({ name: 'restaurant', version: '1.0.0', tools: [bookTable] });
  const http = await serveMcp(server, { port: 0 });
  try {
    console.log(`MCP server at ${http.url}`);
    console.log('2026-07-28 client:', JSON.stringify(await bookWith(http.url, '2026')));
    console.log('2025 client:      ', JSON.stringify(await bookWith(http.url, '2025')));
  } finally {
    await http.close();
  }
}

// Run when executed directly (not when a test imports it).
if (
  process.argv[1] !== undefined &&
  import.meta.url === pathToFileURL(resolve(process.argv[1])).href
) {
  await main();
}
