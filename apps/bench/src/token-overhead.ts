// `pnpm --filter bench run tokens`: the tokens MTPX adds to a request, measured on the wire.
// For each toolset, our agent sends one request through the real OpenAI adapter to a
// scripted server, in four settings; the recorded bodies are counted by both rules of the
// bench (o200k, and Anthropic's — see `agents/tokens-sent.ts`) and compared with the same
// request with no instructions and the tools' own schemas (what a peer SDK sends).
import { createAgent } from '@mtpx/agent';
import type { Tool } from '@mtpx/executor';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import type { JsonObject } from '@mtpx/protocol';
import { createOpenAIProvider } from '@mtpx/providers/openai';
import { startScriptedOpenAIServer } from '@mtpx/providers/testing';
import { ToolsetLog } from './agents/bfcl-tools';
import { mtpxTools } from './agents/mtpx-runs';
import { ToolLog } from './agents/scenario-tools';
import { anthropicTokensSent, tokensSent } from './agents/tokens-sent';
import { bfclTools } from './agents/toolset-runs';

type Toolset = Array<Tool | ReturnType<typeof calculatorToolkit>>;

// The tools never run here: only the request they make is measured.
const idle = { current: new ToolLog(() => 0) };
const idleToolset = { current: new ToolsetLog() };

const toolsets: Record<string, () => Toolset> = {
  'rows 3 and 4 (4 calculators + lookup)': () => mtpxTools(idle, false),
  'calculatorToolkit() (5 tools)': () => [calculatorToolkit()],
  'row 8 (29 BFCL functions)': () => bfclTools(idleToolset),
};

const settings = {
  bare: { referenceInstructions: false, referenceSchemas: false, strictTools: false },
  default: { referenceInstructions: true, referenceSchemas: 'auto', strictTools: false },
  referenceSchemas: { referenceInstructions: true, referenceSchemas: true, strictTools: false },
  strictTools: { referenceInstructions: true, referenceSchemas: 'auto', strictTools: true },
  // Every tool deferred: the first request carries the search tool instead of the schemas.
  toolSearch: {
    referenceInstructions: true,
    referenceSchemas: 'auto',
    strictTools: false,
    toolSearch: true,
  },
} as const;

/** The first request our agent sends with these tools and settings, as the server recorded it. */
async function firstRequest(tools: Toolset, setting: keyof typeof settings): Promise<JsonObject> {
  const server = await startScriptedOpenAIServer([{ text: 'Done.' }]);
  try {
    const { strictTools, ...agentOptions } = settings[setting];
    const provider = createOpenAIProvider({
      model: 'scripted-model',
      apiKey: 'test',
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
      strictTools,
    });
    await createAgent({ provider, tools, ...agentOptions }).run('Hi');
    return server.requests[0]?.body as JsonObject;
  } finally {
    await server.close();
  }
}

const count = (body: JsonObject) => ({
  o200k: tokensSent([{ body }]),
  anthropic: anthropicTokensSent([{ body }]),
});

console.log(
  '| toolset | setting | tools | tokens added to a request (o200k / Anthropic rules) | per tool |',
);
console.log('| --- | --- | --- | --- | --- |');
for (const [name, make] of Object.entries(toolsets)) {
  const bare = count(await firstRequest(make(), 'bare'));
  for (const setting of ['default', 'referenceSchemas', 'strictTools', 'toolSearch'] as const) {
    const body = await firstRequest(make(), setting);
    const tools = Array.isArray(body.tools) ? body.tools.length : 0;
    const { o200k, anthropic } = count(body);
    const instructions = setting === 'default' ? 0 : count(await firstRequest(make(), 'default'));
    const perTool =
      setting === 'toolSearch'
        ? 'the search tool instead of every schema'
        : instructions === 0
          ? '0 (the tools’ own schemas)'
          : `${((o200k - instructions.o200k) / tools).toFixed(1)} / ${((anthropic - instructions.anthropic) / tools).toFixed(1)}`;
    console.log(
      `| ${name} | ${setting} | ${tools} | ${o200k - bare.o200k} / ${anthropic - bare.anthropic} | ${perTool} |`,
    );
  }
}
