/**
 * Test support (not exported from the package): the multi-round tools the tests serve,
 * each written once and served to both protocol eras.
 */

import { defineMcpTool, type McpTool } from '../definitions/mcp-tool';
import { formElicitation, roots, sampling, urlElicitation } from '../input/input-requests';
import { samplingText } from '../input/input-responses';
import { complete, inputRequired } from '../input/input-round';

const nameSchema = {
  type: 'object' as const,
  properties: { name: { type: 'string', title: 'Your name' } },
  required: ['name'],
};

/** Asks a name, then greets. */
export const greetTool = defineMcpTool({
  name: 'greet',
  description: 'Greets the user by name, asking for it first.',
  input_schema: { type: 'object', properties: {} },
  inputRound(_args, context) {
    const view = context.response('name');
    if (view.kind === 'elicitation' && view.action !== 'accept') {
      return complete(view.action === 'decline' ? 'No name, no greeting.' : 'Greeting cancelled.');
    }
    const answer = context.accepted('name');
    if (answer === undefined) {
      return inputRequired({ name: formElicitation('What is your name?', nameSchema) });
    }
    return complete(`Hello, ${String(answer.name)}!`);
  },
});

/** Three rounds: a date, then a confirmation (with the date kept in state), then the booking. */
export const bookTool = defineMcpTool({
  name: 'book_table',
  description: 'Books a table: asks for a date, then for a confirmation.',
  input_schema: {
    type: 'object',
    properties: { party: { type: 'integer', minimum: 1 } },
    required: ['party'],
  },
  inputRound(args, context) {
    const party = Number(args.party);
    const state = context.requestState as { date?: string } | undefined;
    if (state?.date === undefined) {
      const date = context.accepted('date');
      if (date === undefined) {
        return inputRequired({
          date: formElicitation(`Which date for ${party}?`, {
            type: 'object',
            properties: { date: { type: 'string', format: 'date' } },
            required: ['date'],
          }),
        });
      }
      return inputRequired(
        {
          confirm: formElicitation(`Book a table for ${party} on ${String(date.date)}?`, {
            type: 'object',
            properties: { confirm: { type: 'boolean' } },
            required: ['confirm'],
          }),
        },
        { date: String(date.date) },
      );
    }
    const confirmed = context.accepted('confirm');
    if (confirmed?.confirm !== true) return complete(`Not booked (${state.date}).`);
    return complete({ booked: true, party, date: state.date });
  },
});

/** Asks for two fields in one round (to test partial answers). */
export const profileTool = defineMcpTool({
  name: 'profile',
  description: 'Asks for a name and a city in one round.',
  input_schema: { type: 'object', properties: {} },
  inputRound(_args, context) {
    const name = context.accepted('name');
    const city = context.accepted('city');
    if (name === undefined || city === undefined) {
      return inputRequired({
        name: formElicitation('Name?', nameSchema),
        city: formElicitation('City?', {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        }),
      });
    }
    return complete(`${String(name.name)} from ${String(city.city)}`);
  },
});

/** URL elicitation: sends the user to sign in, then finishes. */
export const signInTool = defineMcpTool({
  name: 'sign_in',
  description: 'Sends the user to a sign-in page.',
  input_schema: { type: 'object', properties: {} },
  inputRound(_args, context) {
    const view = context.response('signin');
    if (view.kind === 'missing') {
      return inputRequired({
        signin: urlElicitation('Sign in to continue', 'https://example.com/login'),
      });
    }
    return complete(
      view.kind === 'elicitation' && view.action === 'accept' ? 'Signed in.' : 'Not signed in.',
    );
  },
});

/** Sampling: asks the client's model for a haiku about the topic. */
export const haikuTool = defineMcpTool({
  name: 'haiku',
  description: "Writes a haiku with the client's model.",
  input_schema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
  inputRound(args, context) {
    const view = context.response('poem');
    if (view.kind !== 'sampling') {
      return inputRequired({
        poem: sampling({
          messages: [
            {
              role: 'user',
              content: { type: 'text', text: `A haiku about ${String(args.topic)}` },
            },
          ],
          systemPrompt: 'You write haiku.',
          maxTokens: 60,
        }),
      });
    }
    return complete({ haiku: samplingText(view.response) ?? '', model: view.response.model });
  },
});

/** Roots: lists the client's roots. */
export const rootsTool = defineMcpTool({
  name: 'list_roots',
  description: "Lists the client's roots.",
  input_schema: { type: 'object', properties: {} },
  inputRound(_args, context) {
    const view = context.response('roots');
    if (view.kind !== 'roots') return inputRequired({ roots: roots() });
    return complete(view.roots.map((root) => root.uri));
  },
});

/** Reports progress in every round, including one value that does not rise (never sent). */
export const stepsTool = defineMcpTool({
  name: 'steps',
  description: 'Three rounds of progress.',
  input_schema: { type: 'object', properties: {} },
  async inputRound(_args, context) {
    await context.progress(context.inputRound, { total: 3, message: `step ${context.inputRound}` });
    if (context.inputRound < 3) {
      await context.progress(context.inputRound - 0.5, { total: 3, message: 'step backwards' });
      return inputRequired({
        [`ok${context.inputRound}`]: formElicitation(`Continue after step ${context.inputRound}?`, {
          type: 'object',
          properties: { ok: { type: 'boolean' } },
        }),
      });
    }
    await context.progress(1, { total: 3, message: 'step backwards' });
    return complete('done in 3 rounds');
  },
});

/** Every tool the tests serve. */
export const testTools: McpTool<never>[] = [
  greetTool,
  bookTool,
  profileTool,
  signInTool,
  haikuTool,
  rootsTool,
  stepsTool,
];
