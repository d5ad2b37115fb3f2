import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { McpAdapterError } from '../errors';
import { formElicitation } from './input-requests';
import { createStateSigner, type RoundState, type StateBinding } from './request-state';

const binding: StateBinding = { method: 'tools/call', target: 'book', argumentsDigest: 'abc' };
const state: RoundState = {
  round: 2,
  pending: { date: formElicitation('Date?', { type: 'object', properties: {} }) },
  received: { name: { action: 'accept', content: { name: 'Ada' } } },
  lastProgress: 1,
  state: { step: 'date', picked: [1, 2] },
};

describe('createStateSigner', () => {
  it('verifies what it minted, for the same call', () => {
    const signer = createStateSigner({ key: 'k'.repeat(32) });
    expect(signer.verify(signer.mint(state, binding), binding)).toEqual({ ok: true, state });
  });

  it('verifies across signers that share the key', () => {
    const token = createStateSigner({ key: 'k'.repeat(32) }).mint(state, binding);
    expect(createStateSigner({ key: 'k'.repeat(32) }).verify(token, binding).ok).toBe(true);
    expect(createStateSigner({ key: 'x'.repeat(32) }).verify(token, binding)).toEqual({
      ok: false,
      reason: 'signature',
    });
  });

  it.each([
    ['method', { ...binding, method: 'prompts/get' }],
    ['target', { ...binding, target: 'other' }],
    ['arguments', { ...binding, argumentsDigest: 'xyz' }],
  ])('refuses a state bound to another %s', (_what, other) => {
    const signer = createStateSigner();
    expect(signer.verify(signer.mint(state, binding), other)).toEqual({
      ok: false,
      reason: 'foreign',
    });
  });

  it('refuses a state past its expiry', () => {
    let now = 1_000_000;
    const signer = createStateSigner({ ttlSeconds: 10, now: () => now });
    const token = signer.mint(state, binding);
    now += 9_999;
    expect(signer.verify(token, binding).ok).toBe(true);
    now += 1;
    expect(signer.verify(token, binding)).toEqual({ ok: false, reason: 'expired' });
  });

  it.each(['', '.', 'abc', 'abc.', '.abc', 'a.b.c'])('refuses the malformed token %j', (token) => {
    const result = createStateSigner().verify(token, binding);
    expect(result.ok).toBe(false);
  });

  it('refuses a well-signed payload that is not a state', () => {
    const key = 'k'.repeat(32);
    const sign = (payload: string) =>
      createHmac('sha256', key).update(`mtpx-mcp-state.v1.${payload}`).digest('base64url');
    const signer = createStateSigner({ key });
    for (const text of ['not json', '{"m":"tools/call"}', '[1,2]']) {
      const payload = Buffer.from(text).toString('base64url');
      expect(signer.verify(`${payload}.${sign(payload)}`, binding)).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
  });

  it('rejects keys shorter than 32 bytes and a non-positive lifetime', () => {
    expect(() => createStateSigner({ key: 'short' })).toThrow(McpAdapterError);
    expect(() => createStateSigner({ key: new Uint8Array(31) })).toThrow(/at least 32 bytes/);
    expect(() => createStateSigner({ ttlSeconds: 0 })).toThrow(/above 0/);
  });
});
