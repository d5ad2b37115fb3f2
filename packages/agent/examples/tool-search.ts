/**
 * Tool search with no network and no key: an agent with 60 tools sends none of their
 * schemas until the model asks. Through the real OpenAI adapter against a scripted Chat
 * Completions server on 127.0.0.1, the model (1) searches for the tools it needs, (2)
 * chains the two found tools with `$ref` in ONE response, (3) answers. The same run with
 * every schema sent is shown beside it: what each request carried.
 *
 * Run: pnpm --filter @mtpx/agent run example:tool-search
 */
import { createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import { type ScriptedTurn, startScriptedOpenAIServer } from '@mtpx/providers/testing';

const areas = ['invoice', 'shipment', 'customer', 'warehouse', 'supplier', 'refund'];
const verbs = [
  'create',
  'get',
  'list',
  'update',
  'cancel',
  'archive',
  'export',
  'merge',
  'tag',
  'audit',
];

/** 60 tools of a shop's back office; two of them the task needs. */
function backOffice() {
  return areas.flatMap((area) =>
    verbs.map((verb) =>
      defineTool({
        name: `${verb}_${area}`,
        description: `${verb[0]?.toUpperCase()}${verb.slice(1)} ${/^[aeiou]/.test(area) ? 'an' : 'a'} ${area} record in the back office. Use it when the user asks to ${verb} one ${area}; it answers the ${area} as stored, with its id, status, amounts and dates.`,
        input_schema: {
          type: 'object',
          properties: {
            [`${area}_id`]: { type: 'string', description: `The ${area}'s id.` },
            note: { type: 'string', description: 'A note kept with the change.' },
            amount: { type: 'number', description: 'An amount in euros, when one applies.' },
          },
        },
        execute: (args: Record<string, unknown>) => ({
          [`${area}_id`]: args[`${area}_id`] ?? `${area.slice(0, 3).toUpperCase()}-1042`,
          status: verb === 'cancel' ? 'cancelled' : 'open',
          amount: 129.5,
        }),
      }),
    ),
  );
}

const task = 'Customer C-7 was charged twice: find their last invoice and refund it.';
const search: ScriptedTurn = {
  toolCalls: [
    { id: 'call_s1', name: 'search_tools', arguments: { query: 'get invoice, create refund' } },
  ],
};
const chain: ScriptedTurn = {
  toolCalls: [
    { id: 'call_a1', name: 'get_invoice', arguments: { note: 'last invoice of C-7' } },
    {
      id: 'call_a2',
      name: 'create_refund',
      arguments: {
        amount: { $ref: 'call_1', $path: '/amount' },
        note: { $ref: 'call_1', $path: '/invoice_id' },
      },
    },
  ],
};
const answer: ScriptedTurn = { text: 'Invoice INV-1042 (€129.50) is refunded.' };

async function run(toolSearch: boolean, turns: ScriptedTurn[]) {
  const server = await startScriptedOpenAIServer(turns);
  try {
    const agent = createAgent({
      provider: createOpenAIProvider({
        model: 'gpt-4.1-mini',
        apiKey: 'sk-local',
        baseURL: `${server.url}/v1`,
        maxRetries: 0,
      }),
      tools: backOffice(),
      toolSearch,
    });
    const output = await agent.run(task);
    console.log(
      `\n${toolSearch ? 'toolSearch: true' : 'every schema'} — ${output.rounds} model calls`,
    );
    server.requests.forEach((request, index) => {
      const tools = (
        (request.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []
      ).map((tool) => tool.function.name);
      const size = JSON.stringify(
        tools.length === 0 ? [] : (request.body as { tools: unknown }).tools,
      ).length;
      const shown =
        tools.length > 4
          ? `${tools.slice(0, 4).join(', ')}, … (${tools.length})`
          : tools.join(', ');
      console.log(
        `  request ${index + 1}: ${String(size).padStart(6)} characters of tools  [${shown}]`,
      );
    });
    for (const result of output.toolResults) {
      console.log(`  ${result.tool_name} → ${JSON.stringify(result.output)}`);
    }
    console.log(`  answer: ${output.finalText}`);
  } finally {
    await server.close();
  }
}

await run(true, [search, chain, answer]);
await run(false, [chain, answer]);
