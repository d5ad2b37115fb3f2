import type { Readable, Writable } from 'node:stream';
import { createAgent } from '@mtpx/agent';
import {
  CliError,
  createModelProvider,
  LineReader,
  type ModelProvider,
  shouldColor,
  startRecording,
  Terminal,
} from '@mtpx/example-kit';
import { mcpTools } from '@mtpx/mcp';
import { BookingView } from './booking-view';
import type { CliOptions } from './cli-options';
import { connectRestaurant } from './mcp-connection';
import { SERVER_NAME } from './restaurant-server';
import { INSTRUCTIONS, offlineProvider, request } from './scenario';
import { terminalUser } from './terminal-user';

/** Where the app reads and writes. */
export interface AppIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
}

const ERAS = {
  '2026':
    'MCP 2026-07-28: stateless; a round that needs input answers input_required, the client retries',
  '2025': 'MCP 2025 (initialize, a session): the server asks its questions inside the call',
  auto: 'auto: the client probes the server for the newest era it serves',
} as const;

async function askName(io: AppIo, lines: LineReader | undefined): Promise<string> {
  if (lines === undefined)
    throw new CliError(
      'Pass --name (and --date, --yes to answer the server): stdin is not a terminal.',
    );
  io.stdout.write('Your name, for the booking: ');
  const name = (await lines.next())?.trim() ?? '';
  if (name === '') throw new CliError('A booking needs a name.');
  return name;
}

/**
 * Connects an MCP client of the chosen era to the restaurant's server, gives the agent
 * the server's tools (the server's questions answered by flags or at the terminal), and
 * runs the agent on the booking. Resolves with the exit code: 0 when the call completed.
 */
export async function runApp(options: CliOptions, io: AppIo): Promise<number> {
  const model = options.model ? await createModelProvider(options.model) : undefined;
  // Questions are asked only at a terminal; piped runs take their answers from flags.
  const lines = io.stdin.isTTY ? new LineReader(io.stdin) : undefined;
  try {
    return await run(options, io, model, lines);
  } finally {
    lines?.close();
  }
}

async function run(
  options: CliOptions,
  io: AppIo,
  model: ModelProvider | undefined,
  lines: LineReader | undefined,
): Promise<number> {
  const name = options.name ?? (await askName(io, lines));
  const terminal = new Terminal(io.stdout, shouldColor(io.stdout, options.color));
  const { colors } = terminal;
  const view = new BookingView(terminal);
  terminal.line(
    colors.bold('mcp-multiround · an MTPX agent books a table through a multi-round MCP tool'),
  );
  terminal.line();

  const connection = await connectRestaurant({
    era: options.era,
    server: options.server,
    onTraffic: (event) => view.traffic(event),
  });
  const stop = new AbortController();
  const onInterrupt = () => stop.abort(new Error('interrupted'));
  process.once('SIGINT', onInterrupt);
  try {
    const tools = await mcpTools(connection.client, {
      prefix: `${SERVER_NAME}.`,
      elicit: terminalUser({
        preset: options.answers,
        terminal: lines ? { lines, output: io.stdout } : undefined,
        events: view,
        indent: ' '.repeat(17),
      }),
    });
    terminal.line(`${terminal.label('server')}${connection.description}`);
    terminal.line(`${terminal.label('client')}${ERAS[options.era]}`);
    terminal.line(
      `${terminal.label('tools')}${tools.map((tool) => tool.name).join(', ')} ${colors.dim('(from the server, via mcpTools)')}`,
    );
    terminal.line(
      `${terminal.label('model')}${model ? model.label : `offline script ${colors.dim('(no key, no network; --provider for a real model)')}`}`,
    );
    const input = request(name, options.party);
    terminal.line(`${terminal.label('user')}${colors.bold(input)}`);

    const recording = startRecording(options.record);
    const agent = createAgent({
      provider: model?.provider ?? offlineProvider(name, options.party),
      tools,
      instructions: INSTRUCTIONS,
      ...(recording ? { onEvent: recording.recorder } : {}),
    });
    const stream = agent.stream(input, { signal: stop.signal });
    for await (const event of stream) view.agent(event);
    const output = await stream.result;
    await recording?.finish(terminal, stream.runId);
    const completed =
      output.stopReason === 'final' &&
      output.toolResults.length > 0 &&
      output.toolResults.every((result) => result.success);
    return completed ? 0 : 1;
  } finally {
    process.off('SIGINT', onInterrupt);
    await connection.close();
  }
}
