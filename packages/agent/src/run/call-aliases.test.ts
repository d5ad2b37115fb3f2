import type { AssistantToolCall } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { ResponseAliases } from './call-aliases';

const call = (id: string, args: AssistantToolCall['arguments'], dependsOn: string[] = []) =>
  ({ id, name: 'tool.x', arguments: args, depends_on: dependsOn }) as AssistantToolCall;

describe('ResponseAliases', () => {
  it('rewrites call_N to the id of the N-th call of the response, keeping $path', () => {
    const aliases = new ResponseAliases(() => false);
    aliases.begin(0, 'toolu_A');
    aliases.begin(1, 'toolu_B');
    const original = call('toolu_C', {
      x: { $ref: 'call_1' },
      list: [{ $ref: 'call_2', $path: '/items/0' }, 3],
      nested: { deep: { $ref: 'call_1' } },
    });
    const { call: rewritten, aliases: used } = aliases.rewrite(2, original);
    expect(rewritten.arguments).toEqual({
      x: { $ref: 'toolu_A' },
      list: [{ $ref: 'toolu_B', $path: '/items/0' }, 3],
      nested: { deep: { $ref: 'toolu_A' } },
    });
    expect(used).toEqual({ call_1: 'toolu_A', call_2: 'toolu_B' });
    // The model's words are never changed.
    expect(original.arguments.x).toEqual({ $ref: 'call_1' });
  });

  it('takes an id literally when a call of the response or of history has it', () => {
    const inHistory = (id: string) => id === 'call_2';
    const aliases = new ResponseAliases(inHistory);
    aliases.begin(0, 'call_9');
    aliases.begin(1, 'call_1');
    const { call: rewritten, aliases: used } = aliases.rewrite(
      2,
      call('call_x', { a: { $ref: 'call_1' }, b: { $ref: 'call_2' }, c: { $ref: 'call_9' } }),
    );
    expect(rewritten.arguments).toEqual({
      a: { $ref: 'call_1' },
      b: { $ref: 'call_2' },
      c: { $ref: 'call_9' },
    });
    expect(used).toEqual({});
  });

  it('returns the same call when nothing needs rewriting', () => {
    const aliases = new ResponseAliases(() => false);
    const original = call('call_1', { a: 1 });
    expect(aliases.rewrite(0, original).call).toBe(original);
  });

  it('leaves forward aliases as written (a reference must point back)', () => {
    const aliases = new ResponseAliases(() => false);
    aliases.begin(1, 'id_B');
    const { call: rewritten } = aliases.rewrite(0, call('id_A', { a: { $ref: 'call_2' } }));
    expect(rewritten.arguments).toEqual({ a: { $ref: 'call_2' } });
  });

  it('rewrites a self-alias to the call itself, so the executor names the mistake', () => {
    const aliases = new ResponseAliases(() => false);
    const { call: rewritten } = aliases.rewrite(0, call('id_A', { a: { $ref: 'call_1' } }));
    expect(rewritten.arguments).toEqual({ a: { $ref: 'id_A' } });
  });

  it('rewrites depends_on and a reference that is the whole arguments object', () => {
    const aliases = new ResponseAliases(() => false);
    aliases.begin(0, 'id_A');
    const { call: rewritten } = aliases.rewrite(1, call('id_B', { $ref: 'call_1' }, ['call_1']));
    expect(rewritten.arguments).toEqual({ $ref: 'id_A' });
    expect(rewritten.depends_on).toEqual(['id_A']);
  });

  it('ignores call_0, leading zeros and malformed references', () => {
    const aliases = new ResponseAliases(() => false);
    aliases.begin(0, 'id_A');
    const original = call('id_B', {
      a: { $ref: 'call_0' },
      b: { $ref: 'call_01' },
      c: { $ref: 5 } as never,
      d: { $ref: 'call_1', extra: true },
    });
    expect(aliases.rewrite(1, original).call).toBe(original);
  });

  it('keeps the first id reported for a position', () => {
    const aliases = new ResponseAliases(() => false);
    aliases.begin(0, 'id_A');
    aliases.begin(0, 'id_Z');
    aliases.begin(0, undefined);
    expect(aliases.rewrite(1, call('id_B', { a: { $ref: 'call_1' } })).call.arguments).toEqual({
      a: { $ref: 'id_A' },
    });
  });
});
