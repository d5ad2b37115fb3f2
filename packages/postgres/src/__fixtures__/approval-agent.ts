// The agent of the approvals test (issue 27): one response with a `$ref` chain of reads, an
// independent destructive call and a write that needs the chain; then an answer quoting
// every tool message. Each tool execution writes a row to `side_effects`.
import { type Agent, createAgent } from '@mtpx/agent';
import { defineTool } from '@mtpx/executor';
import type { ProviderRequest } from '@mtpx/protocol';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';
import type pg from 'pg';
import type { PostgresRunJournal } from '../postgres-run-journal';

function script(request: ProviderRequest): ScriptedTurn {
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

export function approvalAgent(options: {
  pool: pg.Pool;
  schema: string;
  /** Written on each side-effect row: which process ran the call. */
  label: string;
  journal?: PostgresRunJournal;
  approvalSecret?: string;
  /** An in-process approver instead of a later decision. */
  approve?: (toolName: string) => boolean;
}): Agent {
  const { pool, schema, label } = options;
  const tool = (name: string, risk: 'read_only' | 'write' | 'destructive', output: (args: Record<string, string>) => unknown) =>
    defineTool({
      name,
      description: name,
      risk_level: risk,
      input_schema: { type: 'object', properties: { name: { type: 'string' }, text: { type: 'string' } } },
      execute: async (args: Record<string, string>, context) => {
        await pool.query(
          `INSERT INTO "${schema}".side_effects (run_id, call_id, process) VALUES ($1, $2, $3)`,
          [context.runId ?? '', context.call.id, label],
        );
        return output(args) as string;
      },
    });
  const approve = options.approve;
  return createAgent({
    provider: scriptedProvider(script),
    tools: [
      tool('doc.read', 'read_only', (args) => ({ text: `the ${args.name} text` })),
      tool('doc.summarise', 'read_only', (args) => `summary of ${args.text}`),
      tool('doc.delete', 'destructive', (args) => `deleted ${args.name}`),
      tool('doc.write', 'write', (args) => `wrote "${args.text}"`),
    ],
    policy: { defaults: { write: 'ask', destructive: 'ask' } },
    ...(options.journal === undefined ? {} : { journal: options.journal }),
    ...(options.approvalSecret === undefined ? {} : { approvalSecret: options.approvalSecret }),
    ...(approve === undefined ? {} : { approve: (spec) => approve(spec.name) }),
  });
}
