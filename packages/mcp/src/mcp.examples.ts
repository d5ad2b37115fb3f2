// Type-checked examples shown in the TSDoc of this package's sources (scripts/docs/examples.mjs).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type AnyTool, createExecutor } from '@mtpx/executor';
import type { Provider } from '@mtpx/protocol';
import { z } from 'zod';
import type { ElicitHandler } from './client/input-handlers';
import { mcpClientCapabilities, mcpClientOptions } from './client/mcp-client';
import { mcpTools } from './client/mcp-tools';
import { samplingFromProvider } from './client/provider-sampling';
import { defineMcpPrompt } from './definitions/mcp-prompt';
import { defineMcpResource } from './definitions/mcp-resource';
import { defineMcpResourceTemplate } from './definitions/mcp-resource-template';
import { defineMcpTool } from './definitions/mcp-tool';
import { JSON_RPC_CODES, McpAdapterError } from './errors';
import { createMcpHttpHandler } from './http/http-handler';
import { serveMcp } from './http/serve-mcp';
import { formElicitation, sampling } from './input/input-requests';
import { complete, inputRequired } from './input/input-round';
import { createMcpServer } from './server/create-mcp-server';
import type { McpToolServer } from './server/mcp-tool-server';
import { serveMcpStdio } from './server/serve-stdio';

export function mcpClientCapabilitiesExample() {
  //#region mcpClientCapabilities
  const client = new Client(
    { name: 'agent', version: '1.0.0' },
    {
      capabilities: mcpClientCapabilities({ elicit: true, sample: true }),
    },
  );
  //#endregion mcpClientCapabilities
  return client;
}

export function mcpClientOptionsExample() {
  //#region mcpClientOptions
  const client = new Client(
    { name: 'agent', version: '1.0.0' },
    mcpClientOptions({ era: '2025', elicit: true }),
  );
  //#endregion mcpClientOptions
  return client;
}

export async function mcpToolsExample(askInTerminal: ElicitHandler) {
  //#region mcpTools
  const client = new Client(
    { name: 'agent', version: '1.0.0' },
    mcpClientOptions({ elicit: true }),
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));
  const tools = await mcpTools(client, { prefix: 'bookings.', elicit: askInTerminal });
  const executor = createExecutor({ tools });
  //#endregion mcpTools
  return executor;
}

export async function samplingFromProviderExample(provider: Provider, signal: AbortSignal) {
  //#region samplingFromProvider
  const sample = samplingFromProvider(provider);
  await sample(
    { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 50 },
    { signal },
  );
  //#endregion samplingFromProvider
}

export function defineMcpPromptExample() {
  //#region defineMcpPrompt
  const review = defineMcpPrompt({
    name: 'review',
    arguments: [{ name: 'language', required: true }],
    get: ({ language }) => [{ role: 'user', content: `Review this ${language} code.` }],
  });
  //#endregion defineMcpPrompt
  return review;
}

export function defineMcpResourceTemplateExample() {
  //#region defineMcpResourceTemplate
  const userProfile = defineMcpResourceTemplate({
    uriTemplate: 'users://{id}/profile',
    name: 'user-profile',
    mimeType: 'application/json',
    complete: { id: (typed) => ['ada', 'alan'].filter((id) => id.startsWith(typed)) },
    read: (_uri, { id }) => JSON.stringify({ id }),
  });
  //#endregion defineMcpResourceTemplate
  return userProfile;
}

export function defineMcpResourceExample() {
  //#region defineMcpResource
  const readme = defineMcpResource({
    uri: 'docs://readme',
    name: 'readme',
    mimeType: 'text/markdown',
    read: () => '# Hello',
  });
  //#endregion defineMcpResource
  return readme;
}

export function defineMcpToolExample() {
  //#region defineMcpTool
  const greet = defineMcpTool({
    name: 'greet',
    description: 'Greets the user, asking for their name.',
    input_schema: z.object({}),
    inputRound: (_args, context) => {
      const answer = context.accepted('name', z.object({ name: z.string() }));
      if (answer === undefined) {
        return inputRequired({
          name: formElicitation('Your name?', z.object({ name: z.string() })),
        });
      }
      return complete(`Hello, ${answer.name}!`);
    },
  });
  //#endregion defineMcpTool
  return greet;
}

export async function mcpAdapterErrorExample(client: Client) {
  //#region McpAdapterError
  try {
    await client.callTool({ name: 'book', arguments: {} });
  } catch (error) {
    const adapted = McpAdapterError.fromUnknown(error);
    if (adapted.jsonRpcCode === JSON_RPC_CODES.missingClientCapability) console.log(adapted.data);
  }
  //#endregion McpAdapterError
}

export async function createMcpHttpHandlerExample(server: McpToolServer, request: Request) {
  //#region createMcpHttpHandler
  const handler = createMcpHttpHandler(server);
  const response = await handler.fetch(request);
  //#endregion createMcpHttpHandler
  return response;
}

export async function serveMcpExample(server: McpToolServer) {
  //#region serveMcp
  const http = await serveMcp(server, { port: 3000 });
  console.log(`MCP at ${http.url}`);
  //#endregion serveMcp
}

export function formElicitationExample() {
  //#region formElicitation
  formElicitation('Which date?', {
    type: 'object',
    properties: { date: { type: 'string', format: 'date' } },
    required: ['date'],
  });
  //#endregion formElicitation
}

export function samplingExample() {
  //#region sampling
  sampling({
    messages: [{ role: 'user', content: { type: 'text', text: 'Name a colour' } }],
    maxTokens: 20,
  });
  //#endregion sampling
}

export function completeExample(name: string) {
  //#region complete
  return complete(`Hello, ${name}!`);
  //#endregion complete
}

export function inputRequiredExample(dateSchema: z.ZodObject<{ date: z.ZodString }>) {
  //#region inputRequired
  return inputRequired({ date: formElicitation('Which date?', dateSchema) }, { step: 'date' });
  //#endregion inputRequired
}

export async function createMcpServerExample(bookTable: AnyTool) {
  //#region createMcpServer
  const server = createMcpServer({ name: 'bookings', version: '1.0.0', tools: [bookTable] });
  await serveMcp(server, { port: 3000 });
  //#endregion createMcpServer
}

export function serveMcpStdioExample(server: McpToolServer) {
  //#region serveMcpStdio
  serveMcpStdio(server);
  //#endregion serveMcpStdio
}
