// Ten AI SDK tools from a real, published AI SDK example: the `examples/ai-e2e-next` app of
// the Vercel AI SDK repository (github.com/vercel/ai, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911,
// Apache-2.0). Each keeps its name, description, input (and output) schema and behaviour as
// written there; the file each comes from is named above it. They are plain AI SDK tools
// (`tool`, `dynamicTool` from `ai`): nothing here knows about MTPX.
import { dynamicTool, type ToolSet, tool } from 'ai';
import { z } from 'zod';

const pick = <T>(options: readonly T[]): T =>
  options[Math.floor(Math.random() * options.length)] as T;

// app/api/chat/tools/route.ts — a streaming tool: a `loading` state first, the weather later
// (its onInputStart / onInputDelta / onInputAvailable there only log; left out).
const getWeatherInformation = tool({
  description: 'show the weather in a given city to the user',
  inputSchema: z.object({ city: z.string() }),
  async *execute({ city: _city }: { city: string }, { messages }) {
    yield { state: 'loading' as const };
    // The example counts the assistant messages (and once threw below three).
    const _assistantMessages = messages.filter((message) => message.role === 'assistant').length;
    await new Promise((resolve) => setTimeout(resolve, 5000));
    yield {
      state: 'ready' as const,
      temperature: 72,
      weather: pick(['sunny', 'cloudy', 'rainy', 'snowy', 'windy']),
    };
  },
});

// app/api/chat/human-in-the-loop/tools.ts — the tool there that runs without confirmation
// (its console.log left out).
const getLocalTime = tool({
  description: 'get the local time for a specified location',
  inputSchema: z.object({ location: z.string() }),
  execute: async ({ location: _location }) => '10am',
});

// agent/code-mode/code-mode-agent.ts — two tools with output schemas.
const getInventory = tool({
  description: 'Get the available inventory for a product.',
  inputSchema: z.object({ productId: z.string() }),
  outputSchema: z.object({ productId: z.string(), availableUnits: z.number() }),
  execute: async ({ productId }) => ({ productId, availableUnits: 42 }),
});

const getDemand = tool({
  description: 'Get the requested units for a product.',
  inputSchema: z.object({ productId: z.string() }),
  outputSchema: z.object({ productId: z.string(), requestedUnits: z.number() }),
  execute: async ({ productId }) => ({ productId, requestedUnits: 31 }),
});

// agent/openai/tool-search-agent.ts — weather, file search and email (its
// `providerOptions.openai.deferLoading` belongs to OpenAI's tool search, left out here).
const get_weather = tool({
  description: 'Get the current weather at a specific location',
  inputSchema: z.object({
    location: z.string().describe('The city and state, e.g. San Francisco, CA'),
    unit: z.enum(['celsius', 'fahrenheit']).optional().describe('Temperature unit'),
  }),
  execute: async ({ location, unit = 'fahrenheit' }) => ({
    location,
    temperature: unit === 'celsius' ? 18 : 64,
    condition: 'Partly cloudy',
    humidity: 65,
  }),
});

const search_files = tool({
  description: 'Search through files in the workspace',
  inputSchema: z.object({
    query: z.string().describe('The search query'),
    file_types: z.array(z.string()).optional().describe('Filter by file types'),
  }),
  execute: async ({ query }) => ({
    results: [
      `document1.pdf - Contains "${query}" on page 3`,
      `notes.txt - Found "${query}" in title`,
      `report.docx - "${query}" mentioned in summary`,
    ],
  }),
});

const send_email = tool({
  description: 'Send an email to a recipient',
  inputSchema: z.object({
    to: z.string().describe('Recipient email address'),
    subject: z.string().describe('Email subject'),
    body: z.string().describe('Email body content'),
  }),
  execute: async ({ to, subject }) => ({
    success: true,
    message: `Email sent to ${to} with subject: ${subject}`,
    timestamp: new Date().toISOString(),
  }),
});

// agent/anthropic/web-search-agent.ts — a notebook kept in memory.
const savedNotes: string[] = [];
const saveNote = tool({
  description:
    'Save a note to the notebook. Use this whenever the user asks to save or remember information.',
  inputSchema: z.object({ note: z.string().describe('The note content to save.') }),
  execute: async ({ note }) => {
    savedNotes.push(note);
    return { success: true, totalNotes: savedNotes.length, savedNote: note };
  },
});

// app/api/chat/bedrock-invalid-tool-call/route.ts
const cityAttractions = tool({
  description: 'Get tourist attractions for a city',
  inputSchema: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, attractions: ['Golden Gate Bridge', 'Exploratorium'] }),
});

// app/api/chat/dynamic-tools/route.ts — a dynamic tool (its types are not known statically).
const currentLocation = dynamicTool({
  description: 'Get the current location.',
  inputSchema: z.object({}),
  execute: async () => ({ location: pick(['New York', 'London', 'Paris']) }),
});

/** The ten tools, by the names the example gives them. */
export const exampleTools = {
  getWeatherInformation,
  getLocalTime,
  getInventory,
  getDemand,
  get_weather,
  search_files,
  send_email,
  saveNote,
  cityAttractions,
  currentLocation,
} satisfies ToolSet;
