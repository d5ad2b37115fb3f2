import { describe, expect, it } from 'vitest';
import { ExecutorError } from '../errors';
import { EventChannel } from './event-channel';

async function drain<T>(channel: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of channel) items.push(item);
  return items;
}

describe('EventChannel', () => {
  it('yields what was pushed before and after the reader arrived, then ends at close', async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    const read = drain(channel);
    channel.push(2);
    channel.push(3);
    channel.close();
    channel.push(4); // after close: dropped
    expect(await read).toEqual([1, 2, 3]);
  });

  it('keeps a long backlog in order while the reader catches up', async () => {
    const channel = new EventChannel<number>();
    const count = 5_000;
    for (let index = 0; index < count; index++) channel.push(index);
    channel.close();
    const items = await drain(channel);
    expect(items).toHaveLength(count);
    expect(items.every((item, index) => item === index)).toBe(true);
  });

  it('detaches when the reader stops early, and drops later pushes', async () => {
    const channel = new EventChannel<string>();
    channel.push('a');
    channel.push('b');
    const iterator = channel[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ value: 'a', done: false });
    await iterator.return?.();
    channel.push('c');
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('has one consumer: a second iteration throws events_already_iterated by default', () => {
    const channel = new EventChannel<number>();
    channel[Symbol.asyncIterator]();
    let error: unknown;
    try {
      channel[Symbol.asyncIterator]();
    } catch (caught) {
      error = caught;
    }
    expect(ExecutorError.isInstance(error) && error.code).toBe('events_already_iterated');
  });

  it('throws the caller’s own error for a second iteration when given one', () => {
    const channel = new EventChannel<number>({
      alreadyIterated: () => new RangeError('read the stream once'),
    });
    channel[Symbol.asyncIterator]();
    expect(() => channel[Symbol.asyncIterator]()).toThrow(new RangeError('read the stream once'));
  });
});
