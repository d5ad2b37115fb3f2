/**
 * The conformance tools that talk back to the client while they run — logging, progress,
 * sampling, elicitation, list-change triggers — written once as `defineMcpTool` round
 * hooks, so 2026-07-28 clients get `input_required` results and 2025-era clients real
 * server-to-client requests.
 */
import type { AnyTool } from '@mtpx/executor';
import {
  complete,
  defineMcpTool,
  type ElicitationSchema,
  formElicitation,
  type InputRoundContext,
  inputRequired,
  type McpToolServer,
  sampling,
  samplingText,
} from '@mtpx/mcp';
import { z } from 'zod';
import { pause } from './fixture-media';

const none = z.object({});

/** "action=accept, content={...}", the way the suite's elicitation tools report an answer. */
function answerOf(context: InputRoundContext, key: string): string {
  const view = context.response(key);
  if (view.kind !== 'elicitation') return 'action=cancel, content={}';
  return `action=${view.action}, content=${JSON.stringify(view.content ?? {})}`;
}

/** A tool that asks one form and reports the answer with `prefix`. */
function formTool(name: string, message: string, schema: ElicitationSchema, prefix: string) {
  return defineMcpTool({
    name,
    description: `Asks the user: ${message}`,
    input_schema: none,
    inputRound: (_args, context) =>
      context.response('answer').kind === 'missing'
        ? inputRequired({ answer: formElicitation(message, schema) })
        : complete(`${prefix}${answerOf(context, 'answer')}`),
  });
}

const sep1034Schema: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  },
} as ElicitationSchema;

const sep1330Schema: ElicitationSchema = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
} as ElicitationSchema;

/** The tools; `server` is asked for lazily, as the trigger tools notify through it. */
export function roundTools(server: () => McpToolServer): AnyTool[] {
  const logThree = async (context: InputRoundContext) => {
    await context.log('info', 'Tool execution started');
    await pause(50);
    await context.log('info', 'Tool processing data');
    await pause(50);
    await context.log('info', 'Tool execution completed');
  };
  return [
    defineMcpTool({
      name: 'test_tool_with_logging',
      description: 'Sends three log messages while it runs.',
      input_schema: none,
      inputRound: async (_args, context) => {
        await logThree(context);
        return complete('Tool with logging executed successfully');
      },
    }),
    defineMcpTool({
      name: 'test_logging_tool',
      description: 'Logs, only when the request asked for log messages.',
      input_schema: none,
      inputRound: async (_args, context) => {
        await logThree(context);
        return complete('Logged.');
      },
    }),
    defineMcpTool({
      name: 'test_tool_with_progress',
      description: 'Reports progress 0, 50, 100 of 100.',
      input_schema: none,
      inputRound: async (_args, context) => {
        await context.progress(0, { total: 100 });
        await pause(50);
        await context.progress(50, { total: 100 });
        await pause(50);
        await context.progress(100, { total: 100 });
        return complete('Progress tool completed.');
      },
    }),
    defineMcpTool({
      name: 'test_sampling',
      description: "Asks the client's model to answer a prompt.",
      input_schema: z.object({ prompt: z.string() }),
      inputRound: ({ prompt }, context) => {
        const view = context.response('llm');
        if (view.kind !== 'sampling') {
          return inputRequired({
            llm: sampling({
              messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
              maxTokens: 100,
            }),
          });
        }
        return complete(`LLM response: ${samplingText(view.response) ?? ''}`);
      },
    }),
    defineMcpTool({
      name: 'test_elicitation',
      description: 'Asks the user for a username and an email.',
      input_schema: z.object({ message: z.string() }),
      inputRound: ({ message }, context) =>
        context.response('answer').kind === 'missing'
          ? inputRequired({
              answer: formElicitation(message, {
                type: 'object',
                properties: {
                  username: { type: 'string', description: "User's response" },
                  email: { type: 'string', description: "User's email address" },
                },
                required: ['username', 'email'],
              }),
            })
          : complete(`User response: ${answerOf(context, 'answer')}`),
    }),
    formTool(
      'test_elicitation_sep1034_defaults',
      'Please review and update the form fields with defaults',
      sep1034Schema,
      'Elicitation completed: ',
    ),
    formTool(
      'test_elicitation_sep1330_enums',
      'Please select options from the enum fields',
      sep1330Schema,
      'Elicitation completed: ',
    ),
    formTool(
      'test_streaming_elicitation',
      'Anything to add?',
      { type: 'object', properties: { note: { type: 'string' } } },
      'Streamed: ',
    ),
    defineMcpTool({
      name: 'test_missing_capability',
      description: "Needs the client's sampling, so a client without it is refused (-32021).",
      input_schema: none,
      inputRound: (_args, context) =>
        context.response('llm').kind === 'missing'
          ? inputRequired({
              llm: sampling({
                messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }],
                maxTokens: 10,
              }),
            })
          : complete('Sampled.'),
    }),
    defineMcpTool({
      name: 'test_trigger_tool_change',
      description: 'Tells subscribed clients that the tool list changed.',
      input_schema: none,
      inputRound: () => {
        server().notify.toolsChanged();
        return complete('Tool list change notified.');
      },
    }),
    defineMcpTool({
      name: 'test_trigger_prompt_change',
      description: 'Tells subscribed clients that the prompt list changed.',
      input_schema: none,
      inputRound: () => {
        server().notify.promptsChanged();
        return complete('Prompt list change notified.');
      },
    }),
  ];
}
