import { defineTool } from '@mtpx/executor';
import type { ProviderRequest } from '@mtpx/protocol';
import type { ScriptedTurn } from '@mtpx/providers/testing';

/**
 * One response with a `$ref` chain of reads, an independent destructive call and a write
 * that needs the chain; then an answer that quotes every tool message the model read.
 */
export function approvalScript(request: ProviderRequest): ScriptedTurn {
  const turns = request.messages.filter((message) => message.role === 'assistant').length;
  if (turns === 0) {
    return {
      toolCalls: [
        { id: 'call_read', name: 'doc.read', arguments: { name: 'draft' } },
        {
          id: 'call_summary',
          name: 'doc.summarise',
          arguments: { text: { $ref: 'call_read', $path: '/text' } },
        },
        { id: 'call_delete', name: 'doc.delete', arguments: { name: 'old' } },
        { id: 'call_write', name: 'doc.write', arguments: { text: { $ref: 'call_summary' } } },
      ],
    };
  }
  const answers = request.messages
    .filter((message) => message.role === 'tool')
    .map((message) => `${message.tool_call_id}: ${JSON.stringify(message.content)}`);
  return { text: answers.join('\n') };
}

/** The tools of {@link approvalScript}; each run is counted by call id in `ran`. */
export function approvalTools(ran: Map<string, number>) {
  const count = (id: string) => ran.set(id, (ran.get(id) ?? 0) + 1);
  return [
    defineTool({
      name: 'doc.read',
      description: 'Reads a document.',
      risk_level: 'read_only',
      input_schema: { type: 'object', properties: { name: { type: 'string' } } },
      execute: (args: { name: string }, context) => {
        count(context.call.id);
        return { text: `the ${args.name} text` };
      },
    }),
    defineTool({
      name: 'doc.summarise',
      description: 'Summarises a text.',
      risk_level: 'read_only',
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: (args: { text: string }, context) => {
        count(context.call.id);
        return `summary of ${args.text}`;
      },
    }),
    defineTool({
      name: 'doc.delete',
      description: 'Deletes a document.',
      risk_level: 'destructive',
      input_schema: { type: 'object', properties: { name: { type: 'string' } } },
      execute: (args: { name: string }, context) => {
        count(context.call.id);
        return `deleted ${args.name}`;
      },
    }),
    defineTool({
      name: 'doc.write',
      description: 'Writes a document.',
      risk_level: 'write',
      input_schema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: (args: { text: string }, context) => {
        count(context.call.id);
        return `wrote "${args.text}"`;
      },
    }),
  ];
}

/** The policy of the scenario: writes and destructive calls ask. */
export const approvalPolicy = { defaults: { write: 'ask', destructive: 'ask' } } as const;
