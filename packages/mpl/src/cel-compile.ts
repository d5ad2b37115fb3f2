import { CelEvalError, isError, isMap, noOverload, regexOf, strictFunctions } from './cel-values';

export { CelEvalError, isTruthyJson } from './cel-values';

// A closure compiler for the CEL that assertion files use, evaluated straight on JSON
// values (no conversion of the payload per call). The AST comes from @bufbuild/cel's
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

/** The root variables (`payload`, `args`, …) and the slots of comprehension variables. */
type Variables = Record<string, unknown>;
type Evaluator = (variables: Variables, frame: unknown[]) => unknown;
/** Comprehension variables in scope at a point of the expression, by name → frame slot. */
type Slots = ReadonlyMap<string, number>;

class Unsupported extends Error {}

function logical(isAnd: boolean, left: Evaluator, right: Evaluator): Evaluator {
  // Commutative as in CEL: a false (&&) or true (||) on either side wins over an error.
  const absorbing = !isAnd;
  return (variables, frame) => {
    const a = left(variables, frame);
    if (a === absorbing) return absorbing;
    const b = right(variables, frame);
    if (b === absorbing) return absorbing;
    if (isError(a)) return a;
    if (isError(b)) return b;
    if (typeof a !== 'boolean' || typeof b !== 'boolean')
      return noOverload(isAnd ? '_&&_' : '_||_');
    return !absorbing;
  };
}

type Call = { target?: CelAstExpr; function: string; args: CelAstExpr[] };

function compileCall(call: Call, slots: Slots, size: { slots: number }): Evaluator {
  const name = call.function;
  const operands = [...(call.target ? [call.target] : []), ...call.args].map((node) =>
    compileNode(node, slots, size),
  );
  if (name === '_&&_' || name === '_||_') {
    const [left, right] = operands as [Evaluator, Evaluator];
    return logical(name === '_&&_', left, right);
  }
  if (name === '_?_:_') {
    const [condition, then, otherwise] = operands as [Evaluator, Evaluator, Evaluator];
    return (variables, frame) => {
      const test = condition(variables, frame);
      if (isError(test)) return test;
      if (typeof test !== 'boolean') return noOverload('_?_:_');
      return test ? then(variables, frame) : otherwise(variables, frame);
    };
  }
  // Only the accumulator steps the macros expand to (`@result + [item]`, `@result + 1`):
  // arithmetic a user writes keeps the full CEL planner (int, uint and double differ there).
  if (name === '_+_') {
    const first = call.args[0]?.exprKind;
    if (first?.case !== 'identExpr' || !(first.value as { name: string }).name.startsWith('@'))
      throw new Unsupported('arithmetic');
    const [left, right] = operands as [Evaluator, Evaluator];
    return (variables, frame) => {
      const a = left(variables, frame);
      const b = right(variables, frame);
      if (isError(a)) return a;
      if (isError(b)) return b;
      // The accumulator is the comprehension's own fresh list: extending it in place is safe.
      if (Array.isArray(a) && Array.isArray(b)) {
        for (let index = 0; index < b.length; index++) a.push(b[index]);
        return a;
      }
      if (Number.isInteger(a) && Number.isInteger(b)) return (a as number) + (b as number);
      return noOverload('_+_');
    };
  }
  const implementation = strictFunctions[name];
  if (!implementation || operands.length > 2) throw new Unsupported(name);
  if (name === 'matches' && call.args[0]?.exprKind.case === 'constExpr') {
    const pattern = (call.args[0].exprKind.value as { constantKind: { value?: unknown } })
      .constantKind.value;
    if (typeof pattern === 'string' && isError(regexOf(pattern))) throw new Unsupported(pattern);
  }
  const [first, second] = operands;
  if (!first) throw new Unsupported(name);
  if (!second)
    return (variables, frame) => {
      const a = first(variables, frame);
      return isError(a) ? a : implementation(a, undefined);
    };
  return (variables, frame) => {
    const a = first(variables, frame);
    if (isError(a)) return a;
    const b = second(variables, frame);
    return isError(b) ? b : implementation(a, b);
  };
}

function compileNode(
  node: CelAstExpr | undefined,
  slots: Slots,
  size: { slots: number },
): Evaluator {
  if (!node) throw new Unsupported('empty');
  const kind = node.exprKind;
  switch (kind.case) {
    case 'constExpr': {
      const constant = (
        kind.value as { constantKind: { case: string | undefined; value?: unknown } }
      ).constantKind;
      if (constant.case === 'nullValue') return () => null;
      if (constant.case === 'boolValue' || constant.case === 'stringValue') {
        const value = constant.value;
        return () => value;
      }
      if (constant.case === 'int64Value' || constant.case === 'doubleValue') {
        const value = Number(constant.value);
        return () => value;
      }
      throw new Unsupported(String(constant.case));
    }
    case 'identExpr': {
      const name = (kind.value as { name: string }).name;
      const slot = slots.get(name);
      if (slot !== undefined) return (_variables, frame) => frame[slot];
      return (variables) =>
        Object.hasOwn(variables, name)
          ? variables[name]
          : new CelEvalError(`undeclared reference to '${name}'`);
    }
    case 'selectExpr': {
      const { operand, field, testOnly } = kind.value as {
        operand?: CelAstExpr;
        field: string;
        testOnly: boolean;
      };
      const target = compileNode(operand, slots, size);
      return (variables, frame) => {
        const value = target(variables, frame);
        if (isError(value)) return value;
        // As @bufbuild/cel: has() is false on a non-map and on a member that is null.
        if (testOnly) return isMap(value) && Object.hasOwn(value, field) && value[field] !== null;
        if (!isMap(value)) return new CelEvalError(`field not found: ${field}`);
        return Object.hasOwn(value, field)
          ? value[field]
          : new CelEvalError(`no such key: ${field}`);
      };
    }
    case 'callExpr':
      return compileCall(kind.value as Call, slots, size);
    case 'listExpr': {
      const { elements, optionalIndices } = kind.value as {
        elements: CelAstExpr[];
        optionalIndices: number[];
      };
      if (optionalIndices.length > 0) throw new Unsupported('optional');
      const items = elements.map((element) => compileNode(element, slots, size));
      return (variables, frame) => {
        const values = items.map((item) => item(variables, frame));
        return values.find(isError) ?? values;
      };
    }
    case 'comprehensionExpr':
      return compileComprehension(
        kind.value as Extract<CelAstExpr['exprKind'], { case: 'comprehensionExpr' }>['value'],
        slots,
        size,
      );
    default:
      throw new Unsupported(String(kind.case));
  }
}

function compileComprehension(
  comprehension: Extract<CelAstExpr['exprKind'], { case: 'comprehensionExpr' }>['value'],
  slots: Slots,
  size: { slots: number },
): Evaluator {
  if (comprehension.iterVar2) throw new Unsupported('two-variable comprehension');
  const { iterVar, accuVar } = comprehension;
  // Each comprehension's two variables get the next two frame slots.
  const accuSlot = size.slots++;
  const iterSlot = size.slots++;
  const inner = new Map(slots).set(accuVar, accuSlot).set(iterVar, iterSlot);
  const range = compileNode(comprehension.iterRange, slots, size);
  const init = compileNode(comprehension.accuInit, slots, size);
  const condition = compileNode(comprehension.loopCondition, inner, size);
  const step = compileNode(comprehension.loopStep, inner, size);
  const result = compileNode(comprehension.result, inner, size);
  return (variables, frame) => {
    const source = range(variables, frame);
    if (isError(source)) return source;
    const items = Array.isArray(source) ? source : isMap(source) ? Object.keys(source) : undefined;
    if (!items) return noOverload('comprehension range');
    frame[accuSlot] = init(variables, frame);
    for (let index = 0; index < items.length; index++) {
      frame[iterSlot] = items[index];
      if (condition(variables, frame) === false) break;
      frame[accuSlot] = step(variables, frame);
    }
    return result(variables, frame);
  };
}

/**
 * Compiles a parsed CEL expression into a function of its variables (plain JSON values),
 * or `undefined` when the expression uses something outside the supported subset.
 * The function returns the CEL value, or a {@link CelEvalError} when evaluation fails.
 */
export function compileCel(
  expr: CelAstExpr,
): ((variables: Record<string, unknown>) => unknown) | undefined {
  const size = { slots: 0 };
  let evaluator: Evaluator;
  try {
    evaluator = compileNode(expr, new Map(), size);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  const slotCount = size.slots;
  return (variables) => evaluator(variables, new Array(slotCount));
}
