import { PassThrough } from 'node:stream';
import { LineReader } from '@mtpx/example-kit';
import { WrittenText } from '@mtpx/example-kit/testing';
import type { ElicitationParams } from '@mtpx/mcp';
import { describe, expect, it } from 'vitest';
import { isDate, parseFieldInput, terminalUser, type UserEvents } from './terminal-user';

const dateForm: ElicitationParams = {
  mode: 'form',
  message: 'Which date?',
  requestedSchema: {
    type: 'object',
    properties: { date: { type: 'string', format: 'date', description: 'Date' } },
    required: ['date'],
  },
};
const signal = new AbortController().signal;

function recorder(): UserEvents & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    asked: (message) => seen.push(`asked ${message}`),
    answered: (field, value, source) => seen.push(`${field}=${String(value)} ${source}`),
    declined: (reason) => seen.push(`declined ${reason}`),
  };
}

describe('the person at the terminal', () => {
  it('reads typed answers by the field’s type', () => {
    expect(parseFieldInput({ type: 'boolean' }, ' Yes ')).toEqual({ value: true });
    expect(parseFieldInput({ type: 'boolean' }, 'maybe')).toEqual({ hint: 'answer yes or no' });
    expect(parseFieldInput({ type: 'integer' }, '4')).toEqual({ value: 4 });
    expect(parseFieldInput({ type: 'integer' }, '4.5')).toEqual({ hint: 'an integer, please' });
    expect(parseFieldInput({ type: 'string', format: 'date' }, '2026-12-24')).toEqual({
      value: '2026-12-24',
    });
    expect(parseFieldInput({ type: 'string', enum: ['a', 'b'] }, 'c')).toEqual({
      hint: 'one of a, b',
    });
  });

  it('knows a calendar date from a date-shaped string', () => {
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('24/12/2026')).toBe(false);
  });

  it('answers from flags first', async () => {
    const events = recorder();
    const answer = await terminalUser({
      preset: { date: { value: '2026-12-24', flag: '--date' } },
      events,
    })(dateForm, { signal });
    expect(answer).toEqual({ action: 'accept', content: { date: '2026-12-24' } });
    expect(events.seen).toEqual(['asked Which date?', 'date=2026-12-24 from --date']);
  });

  it('without a flag and without a terminal, declines and says why', async () => {
    const events = recorder();
    const answer = await terminalUser({ preset: {}, events })(dateForm, { signal });
    expect(answer).toEqual({ action: 'decline' });
    expect(events.seen[1]).toBe(
      'declined no answer for "date": not a terminal, and no flag gave one',
    );
  });

  it('at a terminal, asks again until the answer fits, and cancels at the end of input', async () => {
    const input = new PassThrough();
    const output = new WrittenText();
    const lines = new LineReader(input);
    const user = terminalUser({ preset: {}, events: recorder(), terminal: { lines, output } });
    input.write('soon\n2026-12-24\n'); // typed ahead: both lines arrive at once
    expect(await user(dateForm, { signal })).toEqual({
      action: 'accept',
      content: { date: '2026-12-24' },
    });
    expect(output.text()).toBe(
      '  Date (YYYY-MM-DD):   a date as YYYY-MM-DD\n  Date (YYYY-MM-DD): ',
    );
    const cancelled = user(dateForm, { signal });
    input.end();
    expect(await cancelled).toEqual({ action: 'cancel' });
    lines.close();
  });

  it('declines URL elicitations', async () => {
    const answer = await terminalUser({ preset: {}, events: recorder() })(
      { mode: 'url', message: 'Sign in', url: 'https://example.com' },
      { signal },
    );
    expect(answer).toEqual({ action: 'decline' });
  });
});
