/**
 * Canonical JSON: object keys sorted (by code unit), no whitespace, array order kept, so
 * equal values give equal text whatever the key order the model wrote. Returns
 * `undefined` for values JSON cannot hold (and for nesting too deep to walk), which the
 * executor treats as "do not cache". Written without recursion: no value can overflow it.
 *
 * @example
 * ```ts source="./protocol.examples.ts#canonicalJson"
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return write(value);
  } catch {
    return undefined;
  }
}

const maxDepth = 512;

/** A value still to write, or text to append as it is (`]`, `}`, `,`, `"key":`). */
type Task = { value: unknown; depth: number } | string;

function write(value: unknown): string | undefined {
  const parts: string[] = [];
  const tasks: Task[] = [{ value, depth: 0 }];
  while (tasks.length > 0) {
    const task = tasks.pop() as Task;
    if (typeof task === 'string') {
      parts.push(task);
      continue;
    }
    const current = task.value;
    switch (typeof current) {
      case 'string':
        parts.push(JSON.stringify(current));
        break;
      case 'number':
        if (!Number.isFinite(current)) return undefined;
        parts.push(JSON.stringify(current));
        break;
      case 'boolean':
        parts.push(current ? 'true' : 'false');
        break;
      case 'object': {
        if (current === null) {
          parts.push('null');
          break;
        }
        if (task.depth >= maxDepth) return undefined;
        const depth = task.depth + 1;
        if (Array.isArray(current)) {
          parts.push('[');
          tasks.push(']');
          for (let index = current.length - 1; index >= 0; index--) {
            tasks.push({ value: current[index], depth });
            if (index > 0) tasks.push(',');
          }
          break;
        }
        const prototype = Object.getPrototypeOf(current);
        if (prototype !== Object.prototype && prototype !== null) return undefined;
        const record = current as Record<string, unknown>;
        const keys = Object.keys(record)
          .filter((key) => record[key] !== undefined)
          .sort();
        parts.push('{');
        tasks.push('}');
        for (let index = keys.length - 1; index >= 0; index--) {
          const key = keys[index] as string;
          tasks.push({ value: record[key], depth });
          tasks.push(`${index > 0 ? ',' : ''}${JSON.stringify(key)}:`);
        }
        break;
      }
      default:
        return undefined;
    }
  }
  return parts.join('');
}
