import { describe, expect, it } from 'vitest';
import { MtpxError } from './errors';
import { InvalidJsonError } from './json';
import { PlanValidationError } from './plan-issue';

describe('MtpxError', () => {
  it('carries code, message and cause', () => {
    const cause = new Error('low level');
    const error = new MtpxError({ code: 'broken', message: 'It broke.', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('broken');
    expect(error.message).toBe('It broke.');
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('MtpxError');
  });

  it('recognises every subclass as an MtpxError, and each subclass only as itself', () => {
    const planError = new PlanValidationError({
      issues: [{ code: 'cycle', callIds: ['a'], message: 'a -> a' }],
    });
    const jsonError = new InvalidJsonError({ text: '{', cause: new SyntaxError('bad') });
    expect(MtpxError.isInstance(planError)).toBe(true);
    expect(MtpxError.isInstance(jsonError)).toBe(true);
    expect(PlanValidationError.isInstance(planError)).toBe(true);
    expect(PlanValidationError.isInstance(jsonError)).toBe(false);
    expect(InvalidJsonError.isInstance(jsonError)).toBe(true);
  });

  it('survives a second copy of the package: the check reads a Symbol.for marker, not the prototype', () => {
    const fromOtherCopy = Object.assign(new Error('x'), {
      [Symbol.for('mtpx.error')]: true,
      [Symbol.for('mtpx.error.PlanValidationError')]: true,
      code: 'invalid_plan',
    });
    expect(fromOtherCopy instanceof PlanValidationError).toBe(false);
    expect(PlanValidationError.isInstance(fromOtherCopy)).toBe(true);
    expect(MtpxError.isInstance(fromOtherCopy)).toBe(true);
  });

  it('rejects values that are not errors', () => {
    for (const value of [null, undefined, 'error', 42, {}, new Error('plain')]) {
      expect(MtpxError.isInstance(value)).toBe(false);
    }
  });
});
