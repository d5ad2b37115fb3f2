import { describe, expect, it } from 'vitest';
import { createEnvelope, EnvelopeError, isCompatibleVersion, parseEnvelope } from './envelope';
import { MTP_VERSION } from './version';

describe('createEnvelope', () => {
  it('wraps a payload with the current MTP version', () => {
    const envelope = createEnvelope('cancel', { run_id: 'run_1' });
    expect(envelope).toEqual({
      mtp_version: '0.1.0',
      kind: 'cancel',
      payload: { run_id: 'run_1' },
      metadata: {},
    });
    expect(MTP_VERSION).toBe('0.1.0');
  });

  it('round-trips through parseEnvelope', () => {
    const envelope = createEnvelope('result', [{ call_id: 'call_1' }], { trace: 'abc' });
    expect(parseEnvelope(JSON.stringify(envelope))).toEqual({ ok: true, value: envelope });
  });
});

describe('parseEnvelope', () => {
  it('defaults missing metadata', () => {
    const parsed = parseEnvelope('{"mtp_version":"0.1.3","kind":"plan","payload":null}');
    expect(parsed).toEqual({
      ok: true,
      value: { mtp_version: '0.1.3', kind: 'plan', payload: null, metadata: {} },
    });
  });

  it.each([
    ['{"mtp_version":"0.1.0",', 'invalid_json'],
    ['[1,2]', 'invalid_envelope'],
    ['{"mtp_version":"0.1.0","payload":{}}', 'invalid_envelope'],
    ['{"mtp_version":"0.1.0","kind":"","payload":{}}', 'invalid_envelope'],
    ['{"mtp_version":"0.2.0","kind":"plan","payload":{}}', 'unsupported_version'],
    ['{"mtp_version":"1.1.0","kind":"plan","payload":{}}', 'unsupported_version'],
    ['{"mtp_version":"banana","kind":"plan","payload":{}}', 'unsupported_version'],
  ])('refuses %s with %s, keeping the text', (text, code) => {
    const parsed = parseEnvelope(text);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(EnvelopeError.isInstance(parsed.error)).toBe(true);
    expect(parsed.error.code).toBe(code);
    expect(parsed.error.text).toBe(text);
  });

  it('says which field is wrong and which versions are spoken', () => {
    const missingKind = parseEnvelope('{"mtp_version":"0.1.0","payload":{}}');
    expect(!missingKind.ok && missingKind.error.message).toMatch(/^Not an MTP envelope \(kind: /);
    const newer = parseEnvelope('{"mtp_version":"0.2.0","kind":"plan","payload":{}}');
    expect(!newer.ok && newer.error.message).toBe(
      'The envelope speaks MTP 0.2.0; this runtime speaks 0.1.0.',
    );
  });
});

describe('isCompatibleVersion', () => {
  it('accepts the same major and minor version only', () => {
    expect(isCompatibleVersion('0.1.0')).toBe(true);
    expect(isCompatibleVersion('0.1.12')).toBe(true);
    expect(isCompatibleVersion('0.2.0')).toBe(false);
    expect(isCompatibleVersion('0.1')).toBe(false);
    expect(isCompatibleVersion('0.1.x')).toBe(false);
  });
});
