// The Responses API's checks of a follow-up request, as the scripted server and the replay
// server of the tests apply them (the error bodies: src/__fixtures__/responses/SOURCES.md).
import type { ResponseScript } from './model-server';

type Json = Record<string, unknown>;

const invalid = (status: number, message: string, extra: Json = {}): ResponseScript => ({
  type: 'json',
  status,
  headers: { 'x-should-retry': 'false' },
  body: { error: { message, type: 'invalid_request_error', param: 'input', code: null, ...extra } },
});

/** An output item a server answered: its neighbours in the response, and whether it was stored. */
export interface IssuedItem {
  item: Json;
  next: Json | undefined;
  previous: Json | undefined;
  stored: boolean;
}

/**
 * The Responses API's checks of a request's input against what it answered before (the
 * bodies in `responses/SOURCES.md`): stored items may be referenced, unstored ones not; a
 * reasoning item goes with the item that followed it, and that item with its reasoning;
 * a `function_call_output` answers a call of the input; encrypted content must be what
 * was issued. `undefined` when the request is fine.
 */
export function checkResponsesInput(
  body: Json,
  issued: ReadonlyMap<string, IssuedItem>,
): ResponseScript | undefined {
  const input = Array.isArray(body.input) ? (body.input as Json[]) : [];
  const resolved = input.map((entry) => {
    if (entry.type !== 'item_reference')
      return { entry, item: entry, id: entry.id as string | undefined };
    const id = String(entry.id);
    return { entry, item: issued.get(id)?.item, id };
  });
  const callIds = new Set<string>();
  for (const [position, { entry, item, id }] of resolved.entries()) {
    const known = id === undefined ? undefined : issued.get(id);
    if (entry.type === 'item_reference' && (known === undefined || !known.stored)) {
      return notStored(id as string);
    }
    if (entry.type === 'reasoning' && id !== undefined) {
      if (typeof entry.encrypted_content === 'string') {
        if (known !== undefined && entry.encrypted_content !== known.item.encrypted_content) {
          return invalid(
            400,
            `The encrypted content ${shortened(entry.encrypted_content)} could not be verified.`,
            {
              param: null,
              code: 'invalid_encrypted_content',
            },
          );
        }
      } else if (known === undefined || !known.stored) {
        return notStored(id);
      }
    }
    const type = String(item?.type ?? entry.type ?? 'message');
    if (type === 'reasoning' && known?.next !== undefined) {
      if (resolved[position + 1]?.id !== known.next.id) {
        return invalid(
          400,
          `Item '${id}' of type 'reasoning' was provided without its required following item.`,
        );
      }
    }
    if (known?.previous?.type === 'reasoning' && resolved[position - 1]?.id !== known.previous.id) {
      return invalid(
        400,
        `Item '${id}' of type '${type}' was provided without its required 'reasoning' item: '${String(known.previous.id)}'.`,
      );
    }
    if (type === 'function_call' && typeof item?.call_id === 'string') callIds.add(item.call_id);
    if (entry.type === 'function_call_output' && !callIds.has(String(entry.call_id))) {
      return invalid(
        400,
        `No tool call found for function call output with call_id ${String(entry.call_id)}.`,
      );
    }
  }
  return undefined;
}

const shortened = (text: string) => `${text.slice(0, 4)}...${text.slice(-4)}`;

const notStored = (id: string) =>
  invalid(
    404,
    `Item with id '${id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
  );

/** Remembers the output items of an answer, for {@link checkResponsesInput}. */
export function rememberIssued(
  issued: Map<string, IssuedItem>,
  items: readonly Json[],
  stored: boolean,
): void {
  items.forEach((item, index) => {
    if (typeof item.id !== 'string') return;
    issued.set(item.id, { item, next: items[index + 1], previous: items[index - 1], stored });
  });
}
