// Every schema MTPX sends with `strict: true` is checked against the provider's documented
// strict subset, and shown to accept a reference at every value position: when the API
// enforces schemas, `{"$ref": "call_1", "$path": ""}` must still be writable anywhere.
import { createAgent } from '@mtpx/agent';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { anthropicStrictSchemaIssues, openAIStrictSchemaIssues } from '@mtpx/providers';
import { createAnthropicProvider } from '@mtpx/providers/anthropic';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import {
  type ModelServer,
  startScriptedAnthropicServer,
  startScriptedOpenAIServer,
} from '@mtpx/providers/testing';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolsetLog } from './bfcl-tools';
import { mtpxTools } from './mtpx-runs';
import { ToolLog } from './scenario-tools';
import { bfclTools } from './toolset-runs';

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The toolsets the bench offers: rows 3 and 4 (with the write tool) and row 8's BFCL set. */
const toolsets = {
  'rows 3 and 4': () => mtpxTools({ current: new ToolLog(() => 0) }, true),
  'the calculator toolkit': () => [calculatorToolkit()],
  'row 8 (29 BFCL functions)': () => bfclTools({ current: new ToolsetLog() }),
};

/** A minimal value the (original) schema accepts. */
function exampleOf(schema: unknown): unknown {
  if (!isSchema(schema)) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 'x';
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [exampleOf(schema.items)];
    default: {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      return Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, exampleOf(property)]),
      );
    }
  }
}

/** Every value position of the (original) arguments schema, as a path of keys and indexes. */
function valuePaths(
  schema: unknown,
  path: Array<string | number> = [],
): Array<Array<string | number>> {
  if (!isSchema(schema)) return [];
  const out: Array<Array<string | number>> = [];
  if (isSchema(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      out.push([...path, name], ...valuePaths(property, [...path, name]));
    }
  }
  if (schema.items !== undefined) out.push([...path, 0], ...valuePaths(schema.items, [...path, 0]));
  return out;
}

/** The example with a reference written at `path`. */
function withReferenceAt(example: unknown, path: Array<string | number>): unknown {
  const copy = structuredClone(example) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1) as string | number] = { $ref: 'call_1', $path: '' };
  return copy;
}

interface SentTool {
  name: string;
  schema: Schema;
  strict: boolean;
}

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The tools the agent's first request carried, through the real adapter with `strictTools`. */
async function sentTools(
  provider: 'openai' | 'anthropic',
  tools: ReturnType<(typeof toolsets)[keyof typeof toolsets]>,
): Promise<SentTool[]> {
  if (provider === 'openai') {
    server = await startScriptedOpenAIServer([{ text: 'Done.' }]);
    const model = createOpenAIProvider({
      model: 'gpt-4.1-mini',
      apiKey: 'test',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      strictTools: true,
    });
    await createAgent({ provider: model, tools }).run('Go.');
    const body = server.requests[0]?.body as {
      tools: Array<{ function: { name: string; parameters: Schema; strict?: boolean } }>;
    };
    return body.tools.map(({ function: fn }) => ({
      name: fn.name,
      schema: fn.parameters,
      strict: fn.strict === true,
    }));
  }
  server = await startScriptedAnthropicServer([{ text: 'Done.' }]);
  const model = createAnthropicProvider({
    model: 'claude-sonnet-4-6',
    apiKey: 'test',
    baseURL: server.url,
    maxRetries: 0,
    strictTools: true,
  });
  await createAgent({ provider: model, tools }).run('Go.');
  const body = server.requests[0]?.body as {
    tools: Array<{ name: string; input_schema: Schema; strict?: boolean }>;
  };
  return body.tools.map((tool) => ({
    name: tool.name,
    schema: tool.input_schema,
    strict: tool.strict === true,
  }));
}

/** The original schema of a sent tool (wire names have `_` for `.`). */
function originalSchemas(tools: ReturnType<(typeof toolsets)[keyof typeof toolsets]>) {
  const executor = createAgent({
    provider: {
      name: 'none',
      model: 'none',
      generate: async () => ({}) as never,
      stream: () => ({}) as never,
    },
    tools,
  }).executor;
  return executor.registry
    .load()
    .then(
      () =>
        new Map(
          executor.registry
            .list()
            .map((spec) => [spec.name.replaceAll('.', '_'), spec.input_schema]),
        ),
    );
}

/**
 * How many tools each adapter can send strict. OpenAI: all (optional parameters become
 * required-but-nullable, and the adapter drops their nulls). Anthropic: all but the 11
 * BFCL functions past its request-wide limit of 16 union-typed parameters (each value
 * position that accepts a reference is one).
 */
const strictCounts = {
  openai: {
    'rows 3 and 4': '6 of 6',
    'the calculator toolkit': '5 of 5',
    'row 8 (29 BFCL functions)': '29 of 29',
  },
  anthropic: {
    'rows 3 and 4': '6 of 6',
    'the calculator toolkit': '5 of 5',
    'row 8 (29 BFCL functions)': '18 of 29',
  },
};

describe.each(['openai', 'anthropic'] as const)('strict tools sent to %s', (provider) => {
  it.each(Object.keys(toolsets) as Array<keyof typeof toolsets>)(
    '%s: each strict schema fits the documented subset and takes a reference in every value position',
    async (name) => {
      const tools = toolsets[name]();
      const sent = await sentTools(provider, tools);
      const originals = await originalSchemas(tools);
      const strict = sent.filter((tool) => tool.strict);
      expect(strict.length).toBeGreaterThan(0);
      expect(`${strict.length} of ${sent.length}`).toBe(strictCounts[provider][name]);
      let unions = 0;
      for (const tool of strict) {
        if (provider === 'openai') {
          expect(openAIStrictSchemaIssues(tool.schema), tool.name).toEqual([]);
        } else {
          const { issues, cost } = anthropicStrictSchemaIssues(tool.schema);
          expect(issues, tool.name).toEqual([]);
          unions += cost.unionParameters;
        }
        const validate = new Ajv2020({ strict: false }).compile(tool.schema);
        const original = originals.get(tool.name);
        const example = exampleOf(original);
        expect(validate(example), `${tool.name}: its own example`).toBe(true);
        for (const path of valuePaths(original)) {
          expect(
            validate(withReferenceAt(example, path)),
            `${tool.name}: a reference at /${path.join('/')}`,
          ).toBe(true);
        }
      }
      // The check has teeth: the tool's own schema, closed as strict mode wants it,
      // refuses the same reference.
      const [first] = strict;
      const own = originals.get(first?.name ?? '');
      const paths = valuePaths(own);
      if (first && paths[0]) {
        const closedOwn = new Ajv2020({ strict: false }).compile({
          ...own,
          additionalProperties: false,
        });
        expect(closedOwn(withReferenceAt(exampleOf(own), paths[0]))).toBe(false);
      }
      if (provider === 'anthropic') {
        // The request-wide limits hold over all strict tools together.
        expect(strict.length).toBeLessThanOrEqual(20);
        expect(unions).toBeLessThanOrEqual(16);
      }
    },
  );
});
