/**
 * The tools and the prompt of the suite's `input-required-result-*` scenarios (SEP-2322):
 * multi-round calls with signed request state, written as `defineMcpTool` round hooks.
 */
import type { AnyTool } from '@mtpx/executor';
import {
  complete,
  defineMcpPrompt,
  defineMcpTool,
  formElicitation,
  inputRequired,
  type McpPromptDefinition,
  roots,
  sampling,
  samplingText,
} from '@mtpx/mcp';
import { z } from 'zod';

const none = z.object({});
const nameForm = (message: string) =>
  formElicitation(message, {
    type: 'object',
    properties: { name: { type: 'string' } },
    required: ['name'],
  });

/** The tools, by the names the scenarios call. */
export function inputRequiredTools(): AnyTool[] {
  return [
    defineMcpTool({
      name: 'test_input_required_result_elicitation',
      description: 'Asks for a name, then greets.',
      input_schema: none,
      inputRound: (_args, context) => {
        const answer = context.accepted('user_name', z.object({ name: z.string() }));
        if (answer === undefined) {
          return inputRequired({ user_name: nameForm('What is your name?') });
        }
        return complete(`Hello, ${answer.name}!`);
      },
    }),
    defineMcpTool({
      name: 'test_input_required_result_sampling',
      description: "Asks the client's model a question.",
      input_schema: none,
      inputRound: (_args, context) => {
        const view = context.response('capital_question');
        if (view.kind !== 'sampling') {
          return inputRequired({
            capital_question: sampling({
              messages: [
                {
                  role: 'user',
                  content: { type: 'text', text: 'What is the capital of France?' },
                },
              ],
              maxTokens: 100,
            }),
          });
        }
        return complete(`The model answered: ${samplingText(view.response) ?? ''}`);
      },
    }),
    defineMcpTool({
      name: 'test_input_required_result_list_roots',
      description: "Lists the client's roots.",
      input_schema: none,
      inputRound: (_args, context) => {
        const view = context.response('client_roots');
        if (view.kind !== 'roots') return inputRequired({ client_roots: roots() });
        return complete(`Roots: ${view.roots.map((root) => root.uri).join(', ')}`);
      },
    }),
    defineMcpTool({
      name: 'test_input_required_result_request_state',
      description: 'Asks for a confirmation, carrying state across the round.',
      input_schema: none,
      inputRound: (_args, context) => {
        if (context.requestState === undefined) {
          return inputRequired(
            {
              confirm: formElicitation('Please confirm', {
                type: 'object',
                properties: { ok: { type: 'boolean' } },
                required: ['ok'],
              }),
            },
            { step: 'confirm' },
          );
        }
        const state = context.requestState as { step?: string };
        return complete(
          `state-ok: ${state.step ?? ''} (${JSON.stringify(context.accepted('confirm') ?? {})})`,
        );
      },
    }),
    defineMcpTool({
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks for a form, a sampling and the roots at once.',
      input_schema: none,
      inputRound: (_args, context) => {
        if (context.requestState === undefined) {
          return inputRequired(
            {
              user_name: nameForm('What is your name?'),
              greeting: sampling({
                messages: [
                  { role: 'user', content: { type: 'text', text: 'Generate a greeting' } },
                ],
                maxTokens: 50,
              }),
              client_roots: roots(),
            },
            { asked: ['user_name', 'greeting', 'client_roots'] },
          );
        }
        const name = context.accepted('user_name')?.name;
        const greeting = context.response('greeting');
        const clientRoots = context.response('client_roots');
        return complete(
          `name=${String(name)}; greeting=${greeting.kind === 'sampling' ? samplingText(greeting.response) : ''}; roots=${clientRoots.kind === 'roots' ? clientRoots.roots.length : 0}`,
        );
      },
    }),
    defineMcpTool({
      name: 'test_input_required_result_multi_round',
      description: 'Asks two questions, one round each.',
      input_schema: none,
      inputRound: (_args, context) => {
        const state = context.requestState as { name?: string } | undefined;
        if (state === undefined) {
          return inputRequired({ step1: nameForm('Step 1: What is your name?') }, { step: 1 });
        }
        if (state.name === undefined) {
          const name = String(context.accepted('step1')?.name ?? '');
          return inputRequired(
            {
              step2: formElicitation('Step 2: What is your favorite color?', {
                type: 'object',
                properties: { color: { type: 'string' } },
                required: ['color'],
              }),
            },
            { step: 2, name },
          );
        }
        return complete(`${state.name} likes ${String(context.accepted('step2')?.color)}.`);
      },
    }),
    defineMcpTool({
      name: 'test_input_required_result_tampered_state',
      description: 'Carries signed state; a tampered state is refused (-32602).',
      input_schema: none,
      inputRound: (_args, context) =>
        context.requestState === undefined
          ? inputRequired({ confirm: nameForm('Who are you?') }, { user: 'trusted' })
          : complete(
              `Verified state for ${String((context.requestState as { user: string }).user)}.`,
            ),
    }),
    defineMcpTool({
      name: 'test_input_required_result_capabilities',
      description: 'Asks only for what the client declared it can answer.',
      input_schema: none,
      inputRound: (_args, context) => {
        if (context.inputRound > 1) return complete('Asked only for what the client supports.');
        const capabilities = context.clientCapabilities;
        return inputRequired(
          {
            ...(capabilities.sampling !== undefined && {
              question: sampling({
                messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
                maxTokens: 20,
              }),
            }),
            ...(capabilities.elicitation !== undefined && { name: nameForm('What is your name?') }),
            ...(capabilities.roots !== undefined && { client_roots: roots() }),
          },
          { asked: true },
        );
      },
    }),
  ];
}

/** The prompt of `input-required-result-non-tool-request`. */
export const inputRequiredPrompt: McpPromptDefinition = defineMcpPrompt({
  name: 'test_input_required_result_prompt',
  description: 'Asks which context to use, then builds the prompt.',
  inputRound: (_args, context) => {
    const answer = context.accepted('user_context');
    if (answer === undefined) {
      return inputRequired({
        user_context: formElicitation('What context should the prompt use?', {
          type: 'object',
          properties: { context: { type: 'string' } },
          required: ['context'],
        }),
      });
    }
    return complete([{ role: 'user', content: `Use this context: ${String(answer.context)}` }]);
  },
});
