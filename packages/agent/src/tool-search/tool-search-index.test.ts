import type { ToolSpec } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { bm25ToolIndex, oneLine, parameterNames } from './tool-search-index';

const spec = (
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
): ToolSpec => ({
  name,
  description,
  input_schema: { type: 'object', properties },
  tags: [],
  risk_level: 'read_only',
});

const tools = [
  spec('list_issues', 'List issues in a GitHub repository.', { owner: {}, repo: {}, state: {} }),
  spec('add_issue_comment', 'Add a comment to a specific issue in a GitHub repository.', {
    issue_number: {},
    body: {},
  }),
  spec('getStockInfo', 'Get the details of a stock.', { symbol: {} }),
  spec('place_order', 'Place an order.', { order: { type: 'object', properties: { ticker: {} } } }),
  spec('help_me_now', 'Can you please help me with this, and that?'),
];

describe('bm25ToolIndex', () => {
  it('finds tools by words of their names, descriptions and parameter names', async () => {
    const index = bm25ToolIndex(tools);
    expect((await index.search('comment on an issue', 5))[0]).toBe('add_issue_comment');
    expect((await index.search('stock info', 5))[0]).toBe('getStockInfo');
    expect(await index.search('ticker', 5)).toEqual(['place_order']);
    expect(await index.search('list the issues', 1)).toEqual(['list_issues']);
  });

  it('leaves out words that say nothing ("can you please help me")', async () => {
    expect(await bm25ToolIndex(tools).search('can you please help me', 5)).toEqual([]);
  });

  it('answers at most `limit` names, each tool once', async () => {
    const index = bm25ToolIndex([...tools, tools[0] as ToolSpec]);
    const found = await index.search('issue repository comment stock order', 3);
    expect(found).toHaveLength(3);
    expect(new Set(found).size).toBe(3);
  });
});

describe('parameterNames and oneLine', () => {
  it('walks nested properties and items, bounded', () => {
    expect(
      parameterNames({
        properties: { a: { properties: { b: {} } }, list: { items: { properties: { c: {} } } } },
      }).sort(),
    ).toEqual(['a', 'b', 'c', 'list']);
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let level = 0; level < 1000; level++) {
      const child: Record<string, unknown> = {};
      node.properties = { [`p${level}`]: child };
      node = child;
    }
    expect(parameterNames(deep).length).toBeLessThanOrEqual(200);
  });

  it('cuts a description to its first sentence of its first line', () => {
    expect(oneLine('Get details. Use this tool when…\nMore.')).toBe('Get details.');
    expect(oneLine('x'.repeat(300))).toHaveLength(120);
  });
});
