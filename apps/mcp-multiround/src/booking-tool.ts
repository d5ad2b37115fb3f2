import {
  complete,
  defineMcpTool,
  formElicitation,
  type InputRoundResult,
  inputRequired,
} from '@mtpx/mcp';
import { z } from 'zod';

/** The first question: which date (a form with one date field). */
export const DateAnswer = z.object({
  date: z.iso.date().describe('Date'),
});

/** The second question: a yes or no. */
export const Confirmation = z.object({
  confirm: z.boolean().describe('Confirm'),
});

/** What the first round keeps for the next one: signed by the adapter, never trusted unsigned. */
interface BookingState {
  date: string;
}

/** A booking as the tool completes it. */
export interface Booking {
  booked: boolean;
  name: string;
  party: number;
  date?: string;
  reference?: string;
  reason?: string;
}

/** A short, stable reference for a booking (the same booking always gets the same one). */
function referenceOf(name: string, party: number, date: string): string {
  let hash = 0;
  for (const character of `${name}|${party}|${date}`)
    hash = (hash * 31 + (character.codePointAt(0) ?? 0)) >>> 0;
  return `R-${hash.toString(36).toUpperCase().padStart(6, '0').slice(-6)}`;
}

/**
 * `book_table`: a multi-round MCP tool. Round 1 asks for the date (form elicitation);
 * round 2 asks for a confirmation, carrying the date in the signed request state; round 3
 * completes. A declined or cancelled question completes with `booked: false`. Written
 * once, it serves MCP 2026-07-28 clients (`input_required` results the client retries)
 * and 2025 clients (the same questions as server-to-client requests inside one call).
 */
export const bookTable = defineMcpTool({
  name: 'book_table',
  description:
    'Books a table at the restaurant. Asks the user for the date, then for a confirmation.',
  input_schema: z.object({
    name: z.string().min(1).describe('The name the table is booked under'),
    party: z.number().int().min(1).max(12).describe('How many people'),
  }),
  risk_level: 'write',
  inputRound: ({ name, party }, context): InputRoundResult<Booking> => {
    const state = context.requestState as BookingState | undefined;
    if (state === undefined) {
      if (context.response('date').kind !== 'missing') {
        const answer = context.accepted('date', DateAnswer);
        if (answer === undefined)
          return complete({ booked: false, name, party, reason: 'no date given' });
        return inputRequired(
          {
            confirm: formElicitation(
              `Book a table for ${party} under ${name} on ${answer.date}?`,
              Confirmation,
            ),
          },
          { date: answer.date } satisfies BookingState,
        );
      }
      return inputRequired({
        date: formElicitation(
          `Which date should the table for ${party} (${name}) be on?`,
          DateAnswer,
        ),
      });
    }
    if (context.accepted('confirm', Confirmation)?.confirm !== true)
      return complete({ booked: false, name, party, date: state.date, reason: 'not confirmed' });
    return complete({
      booked: true,
      name,
      party,
      date: state.date,
      reference: referenceOf(name, party, state.date),
    });
  },
});
