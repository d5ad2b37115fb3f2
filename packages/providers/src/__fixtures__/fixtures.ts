import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject, safeParseJson } from '@mtpx/protocol';
import type { SseEvent } from '../testing/model-server';

const directory = import.meta.dirname;

function lines(name: string): string[] {
  return readFileSync(join(directory, name), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}

/** A recorded JSON body. */
export function jsonFixture(name: string): unknown {
  const parsed = safeParseJson(readFileSync(join(directory, name), 'utf8'));
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/** A recorded Chat Completions stream: one `data:` payload a line (`[DONE]` included). */
export function openAIChunks(name: string): SseEvent[] {
  return lines(name);
}

/** A recorded Messages API stream: one event's data a line; its `event:` name is its `type`. */
export function anthropicEvents(name: string): SseEvent[] {
  return lines(name).map((data) => {
    const parsed = safeParseJson(data);
    const type = parsed.ok && isJsonObject(parsed.value) ? parsed.value.type : undefined;
    if (typeof type !== 'string') throw new Error(`fixture ${name}: a line without a type: ${data}`);
    return { event: type, data };
  });
}

/** The seed's tools, as MTP tool specs (names with dots). */
export const calculatorTools = ['add', 'subtract', 'multiply', 'divide'].map((operation) => ({
  name: `calculator.${operation}`,
  description: `${operation[0]?.toUpperCase()}${operation.slice(1)} two numbers.`,
  input_schema: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  tags: [],
  risk_level: 'read_only' as const,
}));

export const readFileTool = {
  name: 'file.read_file',
  description: 'Read a text file.',
  input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  tags: [],
  risk_level: 'read_only' as const,
};
