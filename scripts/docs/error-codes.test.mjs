// The error-code page against the code unions of the sources (node --test).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareErrorCodes, documentedCodes, errorCodeUnions } from './error-code-unions.mjs';

const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'error-codes.md'), 'utf8');

test('the error-code page lists every code the packages can raise, and no other', () => {
  assert.deepEqual(compareErrorCodes(page), []);
});

test('it finds the unions of every package, MPL E- codes and MCP JSON-RPC codes included', () => {
  const names = errorCodeUnions().map((union) => union.name);
  for (const name of ['ProviderErrorCode', 'MplErrorCode', 'JSON_RPC_CODES', 'ToolErrorCodeSchema'])
    assert.ok(names.includes(name), name);
});

test('a code missing from the page, or one the sources lack, is reported', () => {
  const unions = [{ package: '@x/y', name: 'WidgetErrorCode', codes: ['broken', 'lost'] }];
  const markdown =
    '## `WidgetErrorCode`\n\n| code | meaning | what to do |\n| --- | --- | --- |\n| `broken` | a | b |\n| `stale` | a | b |\n';
  assert.deepEqual(documentedCodes(markdown).get('WidgetErrorCode'), ['broken', 'stale']);
  assert.deepEqual(compareErrorCodes(markdown, unions), [
    'WidgetErrorCode: lost is not documented',
    'WidgetErrorCode: the page lists stale, which the code does not raise',
  ]);
});
