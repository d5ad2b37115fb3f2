import { describe, expect, it } from 'vitest';
import { checkJsonContentType } from './content-type';

describe('checkJsonContentType', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON; Charset="UTF-8"',
    'application/json;charset=utf-8;profile=x',
    'application/problem+json',
    'application/vnd.mpl.call+json; charset=utf-8',
  ])('accepts %s', (header) => {
    expect(checkJsonContentType(header)).toBeUndefined();
  });

  it.each([
    undefined,
    '',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=latin1',
    'application/jsonp',
  ])('refuses %j with 415', (header) => {
    expect(checkJsonContentType(header)).toMatchObject({
      kind: 'unsupported_media_type',
      status: 415,
    });
  });
});
