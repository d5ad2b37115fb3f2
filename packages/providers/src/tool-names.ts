/**
 * The function names OpenAI's Chat Completions and Anthropic's Messages API accept:
 * ASCII letters, digits, `_` and `-`, 1 to 64 characters. MTP tool names such as
 * `calculator.add` contain dots, so they are mapped for the wire.
 *
 * @internal
 */
export const PROVIDER_TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The longest tool name the APIs accept. @internal */
export const PROVIDER_TOOL_NAME_MAX_LENGTH = 64;

/** A reversible, collision-free mapping between MTP tool names and wire names, for one request. */
export interface ToolNameMapping {
  /** The name to send for a tool (unchanged when already valid). */
  toProvider(name: string): string;
  /**
   * The MTP name for a name the model returned. A name that is not in the mapping is
   * returned unchanged, so the caller can answer "unknown tool" with the model's own words.
   */
  fromProvider(providerName: string): string;
  /** Every `[mtpName, providerName]` pair, in the order the tools were given. */
  readonly entries: ReadonlyArray<readonly [string, string]>;
}

/**
 * The wire form of one name, without regard to other names: every character outside
 * `[a-zA-Z0-9_-]` becomes `_`, and the result is cut to 64 characters.
 *
 * @example
 * ```ts source="./tool-names.examples.ts#sanitizeToolName"
 * sanitizeToolName('calculator.add'); // 'calculator_add'
 * ```
 */
export function sanitizeToolName(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, PROVIDER_TOOL_NAME_MAX_LENGTH);
  return replaced === '' ? '_' : replaced;
}

function withSuffix(base: string, counter: number): string {
  const suffix = `_${counter}`;
  return `${base.slice(0, PROVIDER_TOOL_NAME_MAX_LENGTH - suffix.length)}${suffix}`;
}

/**
 * Maps the tool names of one request to names the APIs accept, reversibly and without
 * collisions. Names that are already valid keep their name; the others are sanitized
 * (`calculator.add` → `calculator_add`), and when that form is taken by another tool a
 * counter is appended (`calculator_add_2`). The mapping depends only on the names and
 * their order, so the same tool list always gives the same wire names.
 *
 * Names outside the mapping (a tool from an earlier round, say) are sanitized on the
 * way out and left as they are on the way back.
 *
 * @example
 * ```ts source="./tool-names.examples.ts#createToolNameMapping"
 * const names = createToolNameMapping(['calculator.add', 'calculator_add']);
 * names.toProvider('calculator.add'); // 'calculator_add_2'
 * names.fromProvider('calculator_add_2'); // 'calculator.add'
 * names.fromProvider('no_such_tool'); // 'no_such_tool'
 * ```
 */
export function createToolNameMapping(names: Iterable<string>): ToolNameMapping {
  const unique = [...new Set(names)];
  const toWire = new Map<string, string>();
  const fromWire = new Map<string, string>();
  for (const name of unique) {
    if (PROVIDER_TOOL_NAME_PATTERN.test(name)) {
      toWire.set(name, name);
      fromWire.set(name, name);
    }
  }
  for (const name of unique) {
    if (toWire.has(name)) continue;
    const base = sanitizeToolName(name);
    let candidate = base;
    for (let counter = 2; fromWire.has(candidate); counter += 1) {
      candidate = withSuffix(base, counter);
    }
    toWire.set(name, candidate);
    fromWire.set(candidate, name);
  }
  const entries = unique.map((name) => [name, toWire.get(name) ?? name] as const);
  return {
    toProvider: (name) => toWire.get(name) ?? sanitizeToolName(name),
    fromProvider: (providerName) => fromWire.get(providerName) ?? providerName,
    entries,
  };
}
