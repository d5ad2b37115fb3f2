import type { AssistantToolCall, JsonObject } from '@mtpx/protocol';
import { replaceAt, scanReferences } from '@mtpx/protocol/internal';

/** `call_N`, N ≥ 1: the N-th call of the response. */
const aliasPattern = /^call_([1-9][0-9]{0,8})$/;

/**
 * A call with its positional aliases rewritten.
 * @internal
 */
export interface AliasedCall {
  /** The call to execute (the model's call itself when nothing was rewritten). */
  call: AssistantToolCall;
  /** Each alias used, and the id it names. */
  aliases: Record<string, string>;
}

/**
 * The positional aliases of ONE model response. Real APIs assign call ids
 * (`call_AbC…`, `toolu_…`), so a model writing several calls in one response cannot know
 * the ids of its own earlier calls. The convention the built-in instructions teach:
 * within a response, `{"$ref": "call_N"}` names the N-th call of that response (1-based,
 * in the order the calls began) — unless a call of the response or of an earlier round
 * literally has the id `call_N`, which then wins. Calls of earlier rounds are named by
 * their real ids.
 *
 * An alias names the call that uses it or an earlier one (the spec's rule: references
 * point back); `call_9` written in the 3rd call is left as written, and the executor
 * answers it as a reference to nowhere. A call is rewritten as soon as it is complete,
 * against the ids known then: in a stream, a call that begins later and literally has the
 * id `call_N` cannot change an alias already decided (no API mixes such ids).
 * @internal
 */
export class ResponseAliases {
  readonly #ids: (string | undefined)[] = [];
  readonly #seen = new Set<string>();
  readonly #inHistory: (id: string) => boolean;

  /** `inHistory` tells whether an id belongs to a call of an earlier round. */
  constructor(inHistory: (id: string) => boolean) {
    this.#inHistory = inHistory;
  }

  /** The call at `index` (0-based, in the order calls began) has this id. */
  begin(index: number, id: string | undefined): void {
    if (id === undefined || id === '' || this.#ids[index] !== undefined) return;
    this.#ids[index] = id;
    this.#seen.add(id);
  }

  /**
   * The call at `index` with every alias in its `$ref`s (and `depends_on`) replaced by
   * the id it names. Never modifies `call`: the conversation keeps the model's words.
   */
  rewrite(index: number, call: AssistantToolCall): AliasedCall {
    this.begin(index, call.id);
    const aliases: Record<string, string> = {};
    const { references } = scanReferences(call.arguments);
    const rewrites: Array<{ segments: readonly (string | number)[]; value: JsonObject }> = [];
    for (const reference of references) {
      const target = this.#target(reference.$ref, index);
      if (target === undefined) continue;
      aliases[reference.$ref] = target;
      const value: JsonObject = { $ref: target };
      if (reference.$path !== undefined) value.$path = reference.$path;
      rewrites.push({ segments: reference.segments, value });
    }
    const dependsOn = Array.isArray(call.depends_on) ? call.depends_on : [];
    let dependsOnChanged = false;
    const rewrittenDependsOn = dependsOn.map((id) => {
      const target = this.#target(id, index);
      if (target === undefined) return id;
      aliases[id] = target;
      dependsOnChanged = true;
      return target;
    });
    if (rewrites.length === 0 && !dependsOnChanged) return { call, aliases };

    const rewritten: AssistantToolCall = { ...call };
    if (rewrites.length > 0)
      rewritten.arguments = replaceAt(call.arguments, rewrites) as JsonObject;
    if (dependsOnChanged) rewritten.depends_on = rewrittenDependsOn;
    return { call: rewritten, aliases };
  }

  /** The id an alias names, or `undefined` when `id` is to be taken literally. */
  #target(id: string, index: number): string | undefined {
    if (this.#seen.has(id) || this.#inHistory(id)) return undefined;
    const match = aliasPattern.exec(id);
    if (match === null) return undefined;
    const position = Number(match[1]) - 1;
    if (position > index) return undefined;
    return this.#ids[position];
  }
}
