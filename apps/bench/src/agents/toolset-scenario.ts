import type { ScriptedTurn } from '@mtpx/providers/testing';
import type { ToolsetLog } from './bfcl-tools';

/** The user's task in row 8, over the 29 BFCL trading and ticket functions. */
export const toolsetTask =
  'Find the stock symbols of Nvidia and Apple and their current prices; keep those priced between $100 and $300; alert me on moves of 0.3% or more; open a ticket about it with priority 2, then raise it to priority 3 and mark it in progress.';

const toolsetAnswer =
  'NVDA ($220.34) and AAPL ($227.16) are both between $100 and $300; NVDA moved 0.34%, so you are alerted on it. Ticket 1 is open, in progress, at priority 3.';

const symbolOf = (callId: string) => ({ $ref: callId, $path: '/symbol' });
const ticketTitle = 'Watch NVDA and AAPL';
const ticketDescription = 'Prices between $100 and $300; alert on moves of 0.3% or more.';
const ticketUpdates = { status: 'In Progress', priority: 3 };

/**
 * Row 8 as MTPX plays it: ONE response of eight calls — both symbols, their prices, the
 * price filter and the alert over the symbols (`$ref` with `$path` inside arrays), the
 * ticket, and its edit by the new ticket's id — then the answer. Two model calls.
 */
export const toolsetWithReferences: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'call_1', name: 'get_symbol_by_name', arguments: { name: 'Nvidia' } },
      { id: 'call_2', name: 'get_symbol_by_name', arguments: { name: 'Apple' } },
      { id: 'call_3', name: 'get_stock_info', arguments: { symbol: symbolOf('call_1') } },
      { id: 'call_4', name: 'get_stock_info', arguments: { symbol: symbolOf('call_2') } },
      {
        id: 'call_5',
        name: 'filter_stocks_by_price',
        arguments: {
          stocks: [symbolOf('call_1'), symbolOf('call_2')],
          min_price: 100,
          max_price: 300,
        },
      },
      {
        id: 'call_6',
        name: 'notify_price_change',
        arguments: { stocks: [symbolOf('call_1'), symbolOf('call_2')], threshold: 0.3 },
      },
      {
        id: 'call_7',
        name: 'create_ticket',
        arguments: { title: ticketTitle, description: ticketDescription, priority: 2 },
      },
      {
        id: 'call_8',
        name: 'edit_ticket',
        arguments: { ticket_id: { $ref: 'call_7', $path: '/id' }, updates: ticketUpdates },
      },
    ],
  },
  { text: toolsetAnswer },
];

/**
 * Row 8 level by level, as a runtime without references must play it: the symbols and
 * the ticket; then the prices, the filter, the alert and the edit with the values read
 * from the results; then the answer. Three model calls.
 */
export const toolsetLevelByLevel: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: 'call_1_1', name: 'get_symbol_by_name', arguments: { name: 'Nvidia' } },
      { id: 'call_1_2', name: 'get_symbol_by_name', arguments: { name: 'Apple' } },
      {
        id: 'call_1_3',
        name: 'create_ticket',
        arguments: { title: ticketTitle, description: ticketDescription, priority: 2 },
      },
    ],
  },
  {
    toolCalls: [
      { id: 'call_2_1', name: 'get_stock_info', arguments: { symbol: 'NVDA' } },
      { id: 'call_2_2', name: 'get_stock_info', arguments: { symbol: 'AAPL' } },
      {
        id: 'call_2_3',
        name: 'filter_stocks_by_price',
        arguments: { stocks: ['NVDA', 'AAPL'], min_price: 100, max_price: 300 },
      },
      {
        id: 'call_2_4',
        name: 'notify_price_change',
        arguments: { stocks: ['NVDA', 'AAPL'], threshold: 0.3 },
      },
      { id: 'call_2_5', name: 'edit_ticket', arguments: { ticket_id: 1, updates: ticketUpdates } },
    ],
  },
  { text: toolsetAnswer },
];

/** Row 8's scripted delay (to first byte of each model call), in milliseconds at time scale 1. */
export const toolsetTiming = { firstByteMs: 300 };

/** Row 8's lower bounds: 2 × 300 and 3 × 300 (the tools answer at once). */
export const toolsetBounds = { withReferences: 600, levelByLevel: 900 };

/** What every run of row 8 must have done: the eight calls' work, the answer given. */
export function toolsetCheck(log: ToolsetLog, answer: string): string | undefined {
  const names = log.calls.map((call) => call.name).sort();
  const expected = [
    'create_ticket',
    'edit_ticket',
    'filter_stocks_by_price',
    'get_stock_info',
    'get_stock_info',
    'get_symbol_by_name',
    'get_symbol_by_name',
    'notify_price_change',
  ];
  if (JSON.stringify(names) !== JSON.stringify(expected)) return `calls ${names.join(', ')}`;
  const filter = log.calls.find((call) => call.name === 'filter_stocks_by_price');
  if (JSON.stringify(filter?.arguments.stocks) !== '["NVDA","AAPL"]') {
    return `the filter got ${JSON.stringify(filter?.arguments.stocks)}`;
  }
  const ticket = log.ticket(1);
  if (ticket?.priority !== 3 || ticket.status !== 'In Progress') {
    return `ticket 1 is ${JSON.stringify(ticket)}`;
  }
  if (!answer.includes('priority 3')) return `unexpected answer: ${answer}`;
  return undefined;
}
