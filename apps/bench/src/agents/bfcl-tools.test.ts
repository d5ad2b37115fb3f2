import { describe, expect, it } from 'vitest';
import { bfclSchema, bfclToolset, ToolsetLog } from './bfcl-tools';

describe('the BFCL toolset of row 8', () => {
  it('maps BFCL types to JSON Schema recursively and keeps everything else', () => {
    expect(
      bfclSchema({
        type: 'dict',
        properties: {
          price: { type: 'float', description: 'USD.', default: 1.5 },
          list: { type: 'tuple', items: { type: 'any' } },
          updates: { type: 'dict', properties: { priority: { type: 'integer' } } },
        },
        required: ['price'],
      }),
    ).toEqual({
      type: 'object',
      properties: {
        price: { type: 'number', description: 'USD.', default: 1.5 },
        list: { type: 'array', items: { type: 'string' } },
        updates: { type: 'object', properties: { priority: { type: 'integer' } } },
      },
      required: ['price'],
    });
  });

  it('has 29 functions with distinct names, array and nested object parameters', () => {
    const tools = bfclToolset();
    expect(tools).toHaveLength(29);
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(29);
    const text = JSON.stringify(tools.map((tool) => tool.parameters));
    expect(text).not.toMatch(/"type":"(dict|float|tuple)"/);
    const byName = new Map(tools.map((tool) => [tool.name, tool.parameters]));
    expect(byName.get('filter_stocks_by_price')?.properties).toMatchObject({
      stocks: { type: 'array', items: { type: 'string' } },
    });
    expect(byName.get('edit_ticket')?.properties).toMatchObject({
      updates: { type: 'object', properties: { priority: { type: 'integer' } } },
    });
  });

  it('answers the scripted calls as BFCL’s classes do', () => {
    const log = new ToolsetLog();
    expect(log.call('get_symbol_by_name', { name: 'Nvidia' })).toEqual({ symbol: 'NVDA' });
    expect(log.call('get_stock_info', { symbol: 'AAPL' })).toMatchObject({ price: 227.16 });
    expect(
      log.call('filter_stocks_by_price', {
        stocks: ['NVDA', 'TSLA'],
        min_price: 100,
        max_price: 300,
      }),
    ).toEqual({ filtered_stocks: ['NVDA'] });
    expect(log.call('create_ticket', { title: 'T', priority: 2 })).toMatchObject({ id: 1 });
    log.call('edit_ticket', { ticket_id: 1, updates: { priority: 3 } });
    expect(log.ticket(1)).toMatchObject({ priority: 3, status: 'Open' });
    expect(log.call('fund_account', { amount: 1 })).toEqual({
      error: "fund_account is not part of this benchmark's scripts",
    });
    expect(log.calls).toHaveLength(6);
  });
});
