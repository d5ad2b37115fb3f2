import { defineTool, ToolRegistry } from '@mtpx/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineMcpPrompt } from '../definitions/mcp-prompt';
import { defineMcpResource } from '../definitions/mcp-resource';
import { defineMcpResourceTemplate } from '../definitions/mcp-resource-template';
import { defineMcpTool } from '../definitions/mcp-tool';
import { createMcpHttpHandler } from '../http/http-handler';
import { type McpHttpServer, serveMcp } from '../http/serve-mcp';
import { complete } from '../input/input-round';
import {
  connectLegacyClient,
  connectModernClient,
  rawModernRequest,
} from '../test-support/clients';
import { createMcpServer } from './create-mcp-server';

const icons = [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }];

const weather = defineMcpTool({
  name: 'weather',
  title: 'Weather',
  icons,
  description: 'The weather in a city.',
  input_schema: z.object({ city: z.string() }),
  output_schema: z.object({ city: z.string(), celsius: z.number() }),
  inputRound: ({ city }) =>
    complete(city === 'Atlantis' ? { city, celsius: 'warm' } : { city, celsius: 21 }),
});

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a city code up.',
  input_schema: z.object({ code: z.string() }),
  execute: ({ code }) => `code ${code}`,
});

const registry = new ToolRegistry([weather, lookup]);

const server = createMcpServer({
  name: 'surface',
  version: '1.0.0',
  icons,
  tools: registry,
  toolListings: { lookup: { title: 'Lookup', output_schema: { type: 'object' } } },
  prompts: [
    defineMcpPrompt({
      name: 'trip',
      arguments: [
        {
          name: 'city',
          required: true,
          complete: (typed) =>
            ['Paris', 'Prague', 'Porto'].filter((city) => city.startsWith(typed)),
        },
      ],
      get: ({ city }) => [{ role: 'user', content: `Plan a trip to ${city}.` }],
    }),
  ],
  resources: [defineMcpResource({ uri: 'news://today', name: 'today', read: () => 'Sunny.' })],
  resourceTemplates: [
    defineMcpResourceTemplate({
      uriTemplate: 'cities://{country}/{city}',
      name: 'city',
      title: 'A city',
      mimeType: 'application/json',
      complete: { country: (typed) => ['fr', 'cz', 'pt'].filter((code) => code.startsWith(typed)) },
      read: (_uri, { country, city }) => JSON.stringify({ country, city }),
    }),
  ],
  cacheHints: { 'tools/list': { ttlMs: 60_000, cacheScope: 'public' } },
});

let http: McpHttpServer;
beforeAll(async () => {
  http = await serveMcp(server, { port: 0 });
});
afterAll(async () => {
  await http.close();
});

describe.each([
  ['2026-07-28 (v2 client)', () => connectModernClient(http.url)],
  ['2025 (v1 client)', () => connectLegacyClient(http.url)],
] as const)('the server surface for a %s', (_era, connect) => {
  it('lists and reads resource templates by RFC 6570 matching', async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      {
        uriTemplate: 'cities://{country}/{city}',
        name: 'city',
        title: 'A city',
        mimeType: 'application/json',
      },
    ]);
    const read = await client.readResource({ uri: 'cities://fr/Paris' });
    expect(read.contents).toEqual([
      {
        uri: 'cities://fr/Paris',
        mimeType: 'application/json',
        text: '{"country":"fr","city":"Paris"}',
      },
    ]);
    await expect(client.readResource({ uri: 'cities://fr' })).rejects.toMatchObject({
      code: -32602,
      data: { uri: 'cities://fr' },
    });
    await client.close();
  });

  it('completes prompt arguments and template variables', async () => {
    const client = await connect();
    const prompt = await client.complete({
      ref: { type: 'ref/prompt', name: 'trip' },
      argument: { name: 'city', value: 'P' },
    });
    expect(prompt.completion).toEqual({
      values: ['Paris', 'Prague', 'Porto'],
      total: 3,
      hasMore: false,
    });
    const template = await client.complete({
      ref: { type: 'ref/resource', uri: 'cities://{country}/{city}' },
      argument: { name: 'country', value: 'c' },
    });
    expect(template.completion.values).toEqual(['cz']);
    const none = await client.complete({
      ref: { type: 'ref/resource', uri: 'cities://{country}/{city}' },
      argument: { name: 'city', value: 'x' },
    });
    expect(none.completion.values).toEqual([]);
    await client.close();
  });

  it('lists titles, icons and output schemas; checks structured output before sending it', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.weather).toMatchObject({
      title: 'Weather',
      icons,
      outputSchema: { type: 'object', required: ['city', 'celsius'] },
    });
    expect(byName.lookup).toMatchObject({ title: 'Lookup', outputSchema: { type: 'object' } });

    const ok = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
    expect(ok.structuredContent).toEqual({ city: 'Oslo', celsius: 21 });
    const broken = await client.callTool({ name: 'weather', arguments: { city: 'Atlantis' } });
    expect(broken.isError).toBe(true);
    expect(JSON.stringify(broken.content)).toContain('does not match its outputSchema');
    // A declared object output that is a string has no structured content: refused too.
    const text = await client.callTool({ name: 'lookup', arguments: { code: 'x' } });
    expect(text.isError).toBe(true);
    await client.close();
  });

  it('tells the client who it is, icons included', async () => {
    const client = await connect();
    await client.listTools();
    expect(client.getServerVersion()).toMatchObject({ name: 'surface', version: '1.0.0', icons });
    await client.close();
  });
});

describe('caching hints (2026-07-28)', () => {
  it('sends the configured hint on tools/list and the defaults elsewhere', async () => {
    const handler = createMcpHttpHandler(server);
    const fetchLike = (request: Request) => handler.fetch(request);
    const tools = await rawModernRequest(fetchLike, 'tools/list', {});
    expect(tools.body.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    const templates = await rawModernRequest(fetchLike, 'resources/templates/list', {});
    expect(templates.body.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    await handler.close();
  });
});
