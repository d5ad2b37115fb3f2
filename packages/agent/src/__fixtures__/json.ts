import { safeParseJson } from '@mtpx/protocol';

/** Parses fixture JSON; a test fails loudly on text that is not JSON. */
export function parseJson(text: string): unknown {
  const parsed = safeParseJson(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}
