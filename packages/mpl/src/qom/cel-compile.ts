import { CelEvalError, isError, isMap, noOverload, regexOf, strictFunctions } from './cel-values';

export { CelEvalError, isTruthyJson } from './cel-values';

// A compiler for the CEL that assertion files use: each expression becomes one generated
// JavaScript function, evaluated straight on JSON values (no conversion of the payload per
// call, no closure call per node). The AST comes from @bufbuild/cel's
// parser, macros already expanded into comprehensions. Anything outside the subset
// (arithmetic, uints, bytes, durations, type conversions, unknown functions) makes
// compileCel return undefined and the caller keeps @bufbuild/cel's own planner.

/** The parts of a `cel.expr.Expr` this compiler reads (structural, from @bufbuild/cel's `parse`). */
export interface CelAstExpr {
  exprKind:
    | { case: 'constExpr'; value: { constantKind: { case: string | undefined; value?: unknown } } }
    | { case: 'identExpr'; value: { name: string } }
    | { case: 'selectExpr'; value: { operand?: CelAstExpr; field: string; testOnly: boolean } }
    | { case: 'callExpr'; value: { target?: CelAstExpr; function: string; args: CelAstExpr[] } }
    | { case: 'listExpr'; value: { elements: CelAstExpr[]; optionalIndices: number[] } }
    | {
        case: 'comprehensionExpr';
        value: {
          iterVar: string;
          iterVar2: string;
          iterRange?: CelAstExpr;
          accuVar: string;
          accuInit?: CelAstExpr;
          loopCondition?: CelAstExpr;
          loopStep?: CelAstExpr;
          result?: CelAstExpr;
        };
      }
    | { case: string | undefined; value?: unknown };
}

class Unsupported extends Error {}

type Call = { target?: CelAstExpr; function: string; args: CelAstExpr[] };
type Comprehension = Extract<CelAstExpr['exprKind'], { case: 'comprehensionExpr' }>['value'];

/** What generated code reaches at run time: the error class, the value tests, constants. */
interface Runtime {
  E: typeof CelEvalError;
  isMap: typeof isMap;
  isError: typeof isError;
  noOverload: typeof noOverload;
  add: (left: unknown, right: unknown) => unknown;
}

const runtime: Runtime = { E: CelEvalError, isMap, isError, noOverload, add };

/** The accumulator steps the macros expand to: `@result + [item]` and `@result + 1`. */
function add(left: unknown, right: unknown): unknown {
  if (isError(left)) return left;
  if (isError(right)) return right;
  // The accumulator is the comprehension's own fresh list: extending it in place is safe.
  if (Array.isArray(left) && Array.isArray(right)) {
    for (let index = 0; index < right.length; index++) left.push(right[index]);
    return left;
  }
  if (Number.isInteger(left) && Number.isInteger(right))
    return (left as number) + (right as number);
  return noOverload('_+_');
}

const isPrimitiveConstant = (node: CelAstExpr | undefined) => {
  if (node?.exprKind.case !== 'constExpr') return false;
  const kind = (node.exprKind.value as { constantKind: { case: string | undefined } }).constantKind
    .case;
  return (
    kind === 'nullValue' ||
    kind === 'boolValue' ||
    kind === 'stringValue' ||
    kind === 'int64Value' ||
    kind === 'doubleValue'
  );
};

/**
 * Writes a CEL expression as the statements of one JavaScript function. Every value,
 * including CEL's error value, is held in a fresh local; errors travel as values exactly
 * as in CEL (an operation given an error returns it), so no exception is ever thrown.
 * Field names and strings appear only as entries of the constants array `K`, never in the
 * source, and every identifier in the source is one the generator made.
 */
class Generator {
  readonly constants: unknown[] = [];
  /** Locals that never hold an error: constants, and items of a list or keys of a map. */
  readonly #safe = new Set<string>();
  #locals = 0;

  /** The test "`local` holds an error", or `false` when it never can. */
  isError(local: string): string {
    return this.#safe.has(local) ? 'false' : `${local} instanceof E`;
  }

  local(): string {
    return `t${this.#locals++}`;
  }

  /**
   * A constant in the source: strings as JSON string literals (a valid JavaScript literal
   * for any string, so nothing can escape it), finite numbers and booleans as written;
   * anything else through the constants array `K`.
   */
  constant(value: unknown): string {
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0))
      return `(${String(value)})`;
    let index = this.constants.indexOf(value);
    if (index < 0) {
      index = this.constants.length;
      this.constants.push(value);
    }
    return `K[${index}]`;
  }

  /**
   * "`target` has own member `field`": a plain load where no `Object.prototype` member
   * shares the name (JSON values never hold `undefined`), `Object.hasOwn` otherwise.
   */
  hasMember(target: string, field: string): string {
    const key = JSON.stringify(field);
    return field in Object.prototype
      ? `hasOwn(${target}, ${key})`
      : `${target}[${key}] !== undefined`;
  }

  error(message: string): string {
    return `new E(${this.constant(message)})`;
  }

  noOverload(name: string): string {
    return `R.noOverload(${this.constant(name)})`;
  }

  /** Appends the statements computing `node` to `out`; returns the local holding its value. */
  node(node: CelAstExpr | undefined, scope: ReadonlyMap<string, string>, out: string[]): string {
    if (!node) throw new Unsupported('empty');
    const kind = node.exprKind;
    const result = this.local();
    switch (kind.case) {
      case 'constExpr': {
        const constant = (
          kind.value as { constantKind: { case: string | undefined; value?: unknown } }
        ).constantKind;
        if (constant.case === 'nullValue') out.push(`const ${result} = null;`);
        else if (constant.case === 'boolValue' || constant.case === 'stringValue')
          out.push(`const ${result} = ${this.constant(constant.value)};`);
        else if (constant.case === 'int64Value' || constant.case === 'doubleValue')
          out.push(`const ${result} = ${this.constant(Number(constant.value))};`);
        else throw new Unsupported(String(constant.case));
        this.#safe.add(result);
        return result;
      }
      case 'identExpr': {
        const name = (kind.value as { name: string }).name;
        const bound = scope.get(name);
        if (bound !== undefined) return bound;
        out.push(
          `const ${result} = ${this.hasMember('V', name)} ? V[${JSON.stringify(name)}] : ${this.error(`undeclared reference to '${name}'`)};`,
        );
        return result;
      }
      case 'selectExpr': {
        const { operand, field, testOnly } = kind.value as {
          operand?: CelAstExpr;
          field: string;
          testOnly: boolean;
        };
        const target = this.node(operand, scope, out);
        const key = JSON.stringify(field);
        const has = this.hasMember(target, field);
        // As @bufbuild/cel: has() is false on a non-map and on a member that is null.
        out.push(
          testOnly
            ? `const ${result} = ${this.isError(target)} ? ${target} : isMap(${target}) && ${has} && ${target}[${key}] !== null;`
            : `const ${result} = ${this.isError(target)} ? ${target} : !isMap(${target}) ? ${this.error(`field not found: ${field}`)} : ${has} ? ${target}[${key}] : ${this.error(`no such key: ${field}`)};`,
        );
        return result;
      }
      case 'callExpr':
        return this.call(kind.value as Call, scope, out, result);
      case 'listExpr': {
        const { elements, optionalIndices } = kind.value as {
          elements: CelAstExpr[];
          optionalIndices: number[];
        };
        if (optionalIndices.length > 0) throw new Unsupported('optional');
        const items = elements.map((element) => this.node(element, scope, out));
        const list = this.local();
        out.push(`const ${list} = [${items.join(', ')}];`);
        // A list never holds an error: a list literal with one is that error.
        this.#safe.add(list);
        if (items.every((local) => this.#safe.has(local))) return list;
        out.push(`const ${result} = ${list}.find(isError) ?? ${list};`);
        return result;
      }
      case 'comprehensionExpr':
        return this.comprehension(kind.value as Comprehension, scope, out, result);
      default:
        throw new Unsupported(String(kind.case));
    }
  }

  /** The statements of `node` in a block of their own, and the local holding its value. */
  block(node: CelAstExpr | undefined, scope: ReadonlyMap<string, string>): [string, string] {
    const out: string[] = [];
    const value = this.node(node, scope, out);
    return [out.join('\n'), value];
  }

  call(call: Call, scope: ReadonlyMap<string, string>, out: string[], result: string): string {
    const name = call.function;
    const operands = [...(call.target ? [call.target] : []), ...call.args];
    if (name === '_&&_' || name === '_||_') {
      // Commutative as in CEL: a false (&&) or true (||) on either side wins over an error.
      const absorbing = name === '_||_' ? 'true' : 'false';
      const a = this.node(operands[0], scope, out);
      const [second, b] = this.block(operands[1], scope);
      out.push(
        `let ${result};`,
        `if (${a} === ${absorbing}) ${result} = ${absorbing};`,
        `else { ${second}`,
        `${result} = ${b} === ${absorbing} ? ${absorbing} : ${this.isError(a)} ? ${a} : ${this.isError(b)} ? ${b} : typeof ${a} !== 'boolean' || typeof ${b} !== 'boolean' ? ${this.noOverload(name)} : ${absorbing === 'true' ? 'false' : 'true'}; }`,
      );
      return result;
    }
    if (name === '_?_:_') {
      const test = this.node(operands[0], scope, out);
      const [then, thenValue] = this.block(operands[1], scope);
      const [otherwise, otherwiseValue] = this.block(operands[2], scope);
      out.push(
        `let ${result};`,
        `if (${this.isError(test)}) ${result} = ${test};`,
        `else if (typeof ${test} !== 'boolean') ${result} = ${this.noOverload('_?_:_')};`,
        `else if (${test}) { ${then}\n${result} = ${thenValue}; }`,
        `else { ${otherwise}\n${result} = ${otherwiseValue}; }`,
      );
      return result;
    }
    // Only the accumulator steps the macros expand to (`@result + [item]`, `@result + 1`):
    // arithmetic a user writes keeps the full CEL planner (int, uint and double differ there).
    if (name === '_+_') {
      const first = call.args[0]?.exprKind;
      if (first?.case !== 'identExpr' || !(first.value as { name: string }).name.startsWith('@'))
        throw new Unsupported('arithmetic');
      const a = this.node(operands[0], scope, out);
      const b = this.node(operands[1], scope, out);
      out.push(`const ${result} = add(${a}, ${b});`);
      return result;
    }
    const implementation = strictFunctions[name];
    if (!implementation || operands.length === 0 || operands.length > 2)
      throw new Unsupported(name);
    if (name === 'matches' && call.args[0]?.exprKind.case === 'constExpr') {
      const pattern = (call.args[0].exprKind.value as { constantKind: { value?: unknown } })
        .constantKind.value;
      if (typeof pattern === 'string' && isError(regexOf(pattern))) throw new Unsupported(pattern);
    }
    const a = this.node(operands[0], scope, out);
    const fn = this.constant(implementation);
    if (operands.length === 1) {
      const applied =
        name === '!_'
          ? `typeof ${a} === 'boolean' ? !${a} : ${this.noOverload('!_')}`
          : name === '@not_strictly_false'
            ? `${a} !== false`
            : name === 'size'
              ? `Array.isArray(${a}) ? ${a}.length : ${fn}(${a}, undefined)`
              : `${fn}(${a}, undefined)`;
      out.push(`const ${result} = ${this.isError(a)} ? ${a} : ${applied};`);
      return result;
    }
    const [second, b] = this.block(operands[1], scope);
    // Equality with a literal null, bool, number or string is JavaScript's `===` (CEL's
    // equals only looks deeper into lists, maps and timestamps).
    const primitive = isPrimitiveConstant(operands[0]) || isPrimitiveConstant(operands[1]);
    const applied =
      primitive && name === '_==_'
        ? `${a} === ${b}`
        : primitive && name === '_!=_'
          ? `${a} !== ${b}`
          : `${fn}(${a}, ${b})`;
    out.push(
      `let ${result};`,
      `if (${this.isError(a)}) ${result} = ${a};`,
      `else { ${second}`,
      `${result} = ${this.isError(b)} ? ${b} : ${applied}; }`,
    );
    return result;
  }

  comprehension(
    comprehension: Comprehension,
    scope: ReadonlyMap<string, string>,
    out: string[],
    result: string,
  ): string {
    if (comprehension.iterVar2) throw new Unsupported('two-variable comprehension');
    const accumulator = this.local();
    const item = this.local();
    const items = this.local();
    const index = this.local();
    // Items of a list and keys of a map are values, never errors.
    this.#safe.add(item);
    const inner = new Map(scope)
      .set(comprehension.accuVar, accumulator)
      .set(comprehension.iterVar, item);
    const range = this.node(comprehension.iterRange, scope, out);
    const [init, initValue] = this.block(comprehension.accuInit, scope);
    const [condition, conditionValue] = this.block(comprehension.loopCondition, inner);
    const [step, stepValue] = this.block(comprehension.loopStep, inner);
    const [end, endValue] = this.block(comprehension.result, inner);
    out.push(
      `let ${result};`,
      `if (${this.isError(range)}) ${result} = ${range};`,
      `else { const ${items} = Array.isArray(${range}) ? ${range} : isMap(${range}) ? Object.keys(${range}) : undefined;`,
      `if (${items} === undefined) ${result} = ${this.noOverload('comprehension range')};`,
      `else { ${init}`,
      `let ${accumulator} = ${initValue};`,
      `for (let ${index} = 0; ${index} < ${items}.length; ${index}++) { const ${item} = ${items}[${index}];`,
      condition,
      `if (${conditionValue} === false) break;`,
      step,
      `${accumulator} = ${stepValue}; }`,
      end,
      `${result} = ${endValue}; } }`,
    );
    return result;
  }
}

/**
 * Compiles a parsed CEL expression into a function of its variables (plain JSON values),
 * or `undefined` when the expression uses something outside the supported subset.
 * The function returns the CEL value, or a {@link CelEvalError} when evaluation fails.
 */
export function compileCel(
  expr: CelAstExpr,
): ((variables: Record<string, unknown>) => unknown) | undefined {
  const generator = new Generator();
  const body: string[] = [];
  let value: string;
  try {
    value = generator.node(expr, new Map(), body);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  const source = `'use strict';\nconst hasOwn = Object.hasOwn, E = R.E, isMap = R.isMap, isError = R.isError, add = R.add;\nreturn function cel(V) {\n${body.join('\n')}\nreturn ${value};\n};`;
  try {
    return new Function('R', 'K', source)(runtime, generator.constants) as (
      variables: Record<string, unknown>,
    ) => unknown;
  } catch {
    // Where code cannot be generated (a runtime that forbids it), the full planner serves.
    return undefined;
  }
}
