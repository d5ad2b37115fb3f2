import type { Message, ProviderRequest, ToolMessage } from '@mtpx/protocol';
import { safeParseJson } from '@mtpx/protocol';
import { type ScriptedTurn, scriptedProvider } from '@mtpx/providers/testing';

/** The tool's name as the agent sees it: the server's tools carry the `restaurant.` prefix. */
export const BOOK_TABLE = 'restaurant.book_table';

/** What the user asks the agent. */
export function request(name: string, party: number): string {
  return `Book a table for ${party} under the name ${name}.`;
}

/** How the client agent should work. */
export const INSTRUCTIONS =
  'You book restaurant tables with the restaurant tools. The booking tool asks the user for the date and a confirmation itself: never ask for them, never invent them. Answer briefly with what was booked.';

function bookingResult(messages: readonly Message[]): ToolMessage | undefined {
  return messages.find(
    (message): message is ToolMessage => message.role === 'tool' && message.name === BOOK_TABLE,
  );
}

/** The model's answer, written from the booking's result as a model would read it. */
export function answerTurn(providerRequest: ProviderRequest): ScriptedTurn {
  const result = bookingResult(providerRequest.messages);
  if (result === undefined || result.is_error)
    return { text: `I could not book the table: ${result?.content ?? 'the tool gave no result'}` };
  const parsed = safeParseJson(result.content);
  const booking = (parsed.ok ? parsed.value : {}) as {
    booked?: boolean;
    name?: string;
    party?: number;
    date?: string;
    reference?: string;
    reason?: string;
  };
  if (booking.booked !== true)
    return { text: `No table was booked (${booking.reason ?? 'the booking did not go through'}).` };
  return {
    text: `Booked: a table for ${booking.party} under ${booking.name} on ${booking.date} (reference ${booking.reference}).`,
  };
}

/**
 * The offline client model: it calls the booking tool with the user's name and party
 * (one native tool call), then answers from the result.
 */
export function offlineProvider(name: string, party: number) {
  return scriptedProvider(
    (providerRequest, turnIndex): ScriptedTurn =>
      turnIndex === 0
        ? { toolCalls: [{ id: 'call_1', name: BOOK_TABLE, arguments: { name, party } }] }
        : answerTurn(providerRequest),
    { latencyMs: 150, chunkDelayMs: 10, model: 'offline-script' },
  );
}
