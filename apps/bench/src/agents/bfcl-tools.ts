import { readFileSync } from 'node:fs';
import { isJsonObject, type JsonObject, type JsonValue, safeParseJson } from '@mtpx/protocol';

/** BFCL's parameter types as JSON Schema types (`bfcl_eval/constants/type_mappings.py`). */
const bfclTypes: Record<string, string> = {
  integer: 'integer',
  number: 'number',
  float: 'number',
  double: 'number',
  string: 'string',
  char: 'string',
  any: 'string',
  boolean: 'boolean',
  bool: 'boolean',
  array: 'array',
  list: 'array',
  tuple: 'array',
  dict: 'object',
  object: 'object',
};

/** One function of the toolset, as the models see it. */
export interface BfclFunction {
  name: string;
  description: string;
  /** The parameters as JSON Schema (see {@link bfclSchema}). */
  parameters: JsonObject;
}

/**
 * A BFCL parameter schema as JSON Schema, the way BFCL's own OpenAI handler converts it:
 * its types mapped (`dict` → `object`, `float` → `number`, …), recursively through
 * `properties` and `items`; every other member kept.
 */
export function bfclSchema(schema: JsonValue): JsonValue {
  if (Array.isArray(schema)) return schema.map(bfclSchema);
  if (!isJsonObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'type' && typeof value === 'string') out.type = bfclTypes[value] ?? value;
    else if (key === 'properties' && isJsonObject(value)) {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, bfclSchema(property)]),
      );
    } else if (key === 'items') out.items = bfclSchema(value);
    else out[key] = value;
  }
  return out;
}

/** The BFCL documents row 8 offers together: the trading bot's 20 functions and the ticket API's 9. */
export const bfclDocuments = ['trading_bot.jsonl', 'ticket_api.jsonl'] as const;

/** Reads one document of `data/bfcl` (one function definition a line). */
function readDocument(file: string): BfclFunction[] {
  const text = readFileSync(new URL(`../../data/bfcl/${file}`, import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const parsed = safeParseJson(line);
      if (!parsed.ok || !isJsonObject(parsed.value)) {
        throw new Error(`data/bfcl/${file}:${index + 1} is not a JSON object`);
      }
      const { name, description, parameters } = parsed.value;
      if (typeof name !== 'string' || typeof description !== 'string') {
        throw new Error(`data/bfcl/${file}:${index + 1} has no name or description`);
      }
      const schema = bfclSchema(parameters ?? { type: 'dict', properties: {} });
      if (!isJsonObject(schema)) throw new Error(`data/bfcl/${file}:${index + 1}: bad parameters`);
      return { name, description, parameters: schema };
    });
}

/** Row 8's toolset: the 29 functions of {@link bfclDocuments}, in file order. */
export function bfclToolset(): BfclFunction[] {
  return bfclDocuments.flatMap(readDocument);
}

/** A stock the trading desk knows. */
interface Stock {
  name: string;
  price: number;
  percent_change: number;
}

const stocks: Record<string, Stock> = {
  NVDA: { name: 'Nvidia', price: 220.34, percent_change: 0.34 },
  AAPL: { name: 'Apple', price: 227.16, percent_change: 0.17 },
  TSLA: { name: 'Tesla', price: 667.92, percent_change: -0.12 },
};

/**
 * What the tools of one run of row 8 did — a small trading desk and ticket system in
 * memory, behaving as BFCL's `TradingBot` and `TicketAPI` classes do for the functions the
 * row's scripts call — so that each framework's run can be checked before its time
 * counts. A function the scripts never call answers with an error naming it.
 */
export class ToolsetLog {
  /** Every call, in the order the tools ran. */
  readonly calls: Array<{ name: string; arguments: JsonObject }> = [];
  readonly #tickets = new Map<number, JsonObject>();

  /** Runs `name` with `args` (already validated against its schema by the framework). */
  call(name: string, args: JsonObject): JsonValue {
    this.calls.push({ name, arguments: args });
    switch (name) {
      case 'get_symbol_by_name': {
        const found = Object.entries(stocks).find(([, stock]) => stock.name === args.name);
        return { symbol: found?.[0] ?? 'Stock not found' };
      }
      case 'get_stock_info': {
        const stock = stocks[String(args.symbol)];
        if (!stock) return { error: `Stock with symbol '${String(args.symbol)}' not found.` };
        return { price: stock.price, percent_change: stock.percent_change, volume: 1.5 };
      }
      case 'filter_stocks_by_price': {
        const symbols = Array.isArray(args.stocks) ? args.stocks.map(String) : [];
        const [min, max] = [Number(args.min_price), Number(args.max_price)];
        return {
          filtered_stocks: symbols.filter((symbol) => {
            const price = stocks[symbol]?.price;
            return price !== undefined && price >= min && price <= max;
          }),
        };
      }
      case 'notify_price_change': {
        const symbols = Array.isArray(args.stocks) ? args.stocks.map(String) : [];
        const moved = symbols.filter(
          (symbol) => Math.abs(stocks[symbol]?.percent_change ?? 0) >= Number(args.threshold),
        );
        return {
          notification:
            moved.length > 0
              ? `Stocks ${moved.join(', ')} have significant price changes.`
              : 'No significant price changes in the selected stocks.',
        };
      }
      case 'create_ticket': {
        const id = this.#tickets.size + 1;
        const ticket: JsonObject = {
          id,
          title: args.title ?? '',
          description: args.description ?? '',
          status: 'Open',
          priority: args.priority ?? 1,
        };
        this.#tickets.set(id, ticket);
        return ticket;
      }
      case 'edit_ticket': {
        const ticket = this.#tickets.get(Number(args.ticket_id));
        if (!ticket) return { error: `Ticket with ID ${String(args.ticket_id)} not found.` };
        if (isJsonObject(args.updates)) Object.assign(ticket, args.updates);
        return { status: `Ticket ${String(args.ticket_id)} updated successfully` };
      }
      default:
        return { error: `${name} is not part of this benchmark's scripts` };
    }
  }

  /** A ticket as it is now, for the checks. */
  ticket(id: number): JsonObject | undefined {
    return this.#tickets.get(id);
  }
}
