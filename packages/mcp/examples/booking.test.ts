import { describe, expect, it } from 'vitest';
import { createMcpServer, serveMcp } from '../src/index';
import { bookTable, bookWith } from './booking';

describe('examples/booking', () => {
  it('books the same table through a 2026-07-28 client and a 2025 client', async () => {
    const http = await serveMcp(
      createMcpServer({ name: 'restaurant', version: '1.0.0', tools: [bookTable] }),
      {
        port: 0,
      },
    );
    const expected = { booked: true, name: 'Ada', party: 4, date: '2026-12-24' };
    expect(await bookWith(http.url, '2026')).toEqual(expected);
    expect(await bookWith(http.url, '2025')).toEqual(expected);
    await http.close();
  });
});
