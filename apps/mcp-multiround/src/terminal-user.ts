import type { Writable } from 'node:stream';
import type { LineReader } from '@mtpx/example-kit';
import type { ElicitationAnswer, ElicitationParams, ElicitHandler } from '@mtpx/mcp';

/** A form field's answer. */
export type FieldValue = string | number | boolean;

/** An answer given on the command line, and the flag it came from (for the output). */
export interface PresetAnswer {
  value: FieldValue;
  flag: string;
}

/** What the user sees and does, for the terminal view. */
export interface UserEvents {
  asked(message: string, fields: string[]): void;
  answered(field: string, value: FieldValue, source: string): void;
  declined(reason: string): void;
}

/** Where the user is: command-line answers, and a terminal to ask in when there is one. */
export interface TerminalUserOptions {
  /** Answers by form field name (`date`, `confirm`), from flags. */
  preset: Readonly<Record<string, PresetAnswer>>;
  /** A terminal to ask in; `undefined` when not interactive (piped, CI). */
  terminal?: { lines: LineReader; output: Writable } | undefined;
  events: UserEvents;
  /** Put before each prompt, to line it up with the rest of the output. */
  indent?: string;
}

interface FieldSchema {
  type?: string;
  format?: string;
  enum?: string[];
  description?: string;
  title?: string;
}

/** Parses what the user typed for a field; `undefined` with a hint when it does not fit. */
export function parseFieldInput(
  schema: FieldSchema,
  text: string,
): { value: FieldValue } | { hint: string } {
  const input = text.trim();
  switch (schema.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(input)) return { value: true };
      if (/^(n|no|false)$/i.test(input)) return { value: false };
      return { hint: 'answer yes or no' };
    case 'number':
    case 'integer': {
      const value = Number(input);
      if (
        input === '' ||
        !Number.isFinite(value) ||
        (schema.type === 'integer' && !Number.isInteger(value))
      )
        return { hint: `a${schema.type === 'integer' ? 'n integer' : ' number'}, please` };
      return { value };
    }
    default:
      if (schema.enum && !schema.enum.includes(input))
        return { hint: `one of ${schema.enum.join(', ')}` };
      if (schema.format === 'date' && !isDate(input)) return { hint: 'a date as YYYY-MM-DD' };
      if (input === '') return { hint: 'an answer, please' };
      return { value: input };
  }
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

function promptFor(name: string, schema: FieldSchema, indent: string): string {
  const kind =
    schema.type === 'boolean'
      ? 'yes/no'
      : schema.format === 'date'
        ? 'YYYY-MM-DD'
        : schema.enum
          ? schema.enum.join('/')
          : (schema.type ?? 'text');
  return `${indent}${schema.description ?? schema.title ?? name} (${kind}): `;
}

/**
 * The person at the terminal, answering an MCP server's form elicitations: each field
 * from its flag when one was given (`--date`, `--yes`), else by asking at the terminal
 * (re-asking until the answer fits the field), else — with no terminal — declining.
 * URL elicitations are declined: this demo has no browser to send anyone to.
 */
export function terminalUser(options: TerminalUserOptions): ElicitHandler {
  return async (params: ElicitationParams, { signal }): Promise<ElicitationAnswer> => {
    if (params.mode === 'url') {
      options.events.declined(
        `the server asked to visit ${params.url}; this demo does not open URLs`,
      );
      return { action: 'decline' };
    }
    const properties = params.requestedSchema.properties as Record<string, FieldSchema>;
    const required = new Set(params.requestedSchema.required ?? Object.keys(properties));
    options.events.asked(params.message, Object.keys(properties));
    const content: Record<string, FieldValue> = {};
    for (const [name, schema] of Object.entries(properties)) {
      const preset = options.preset[name];
      if (preset !== undefined) {
        content[name] = preset.value;
        options.events.answered(name, preset.value, `from ${preset.flag}`);
        continue;
      }
      if (options.terminal === undefined) {
        if (!required.has(name)) continue;
        options.events.declined(`no answer for "${name}": not a terminal, and no flag gave one`);
        return { action: 'decline' };
      }
      const value = await ask(
        options.terminal,
        promptFor(name, schema, options.indent ?? '  '),
        schema,
        signal,
      );
      if (value === undefined) {
        options.events.declined('cancelled at the terminal');
        return { action: 'cancel' };
      }
      content[name] = value;
      options.events.answered(name, value, 'typed');
    }
    return { action: 'accept', content };
  };
}

async function ask(
  terminal: { lines: LineReader; output: Writable },
  prompt: string,
  schema: FieldSchema,
  signal: AbortSignal,
): Promise<FieldValue | undefined> {
  for (;;) {
    terminal.output.write(prompt);
    const text = await terminal.lines.next(signal);
    if (text === undefined) {
      terminal.output.write('\n');
      return undefined; // end of input, or the call was cancelled
    }
    const parsed = parseFieldInput(schema, text);
    if ('value' in parsed) return parsed.value;
    terminal.output.write(`${prompt.match(/^ */)?.[0] ?? ''}${parsed.hint}\n`);
  }
}
