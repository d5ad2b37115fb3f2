/**
 * Canonical JSON: object keys sorted (by code unit), no whitespace, array order kept, so
 * equal values give equal text whatever the key order the model wrote. Returns
 * `undefined` for values JSON cannot hold (and for nesting too deep to walk), which the
 * executor treats as "do not cache".
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] }); // '{"a":[2,{"c":4,"d":3}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string | undefined {
  try {
    return write(value, 0);
  } catch {
    return undefined;
  }
}

const maxDepth = 512;

function write(value: unknown, depth: number): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (depth >= maxDepth) return undefined;
      if (Array.isArray(value)) {
        let text = '[';
        for (let index = 0; index < value.length; index++) {
          const item = write(value[index], depth + 1);
          if (item === undefined) return undefined;
          text += index === 0 ? item : `,${item}`;
        }
        return `${text}]`;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return undefined;
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let text = '{';
      let first = true;
      for (const key of keys) {
        if (record[key] === undefined) continue;
        const item = write(record[key], depth + 1);
        if (item === undefined) return undefined;
        text += `${first ? '' : ','}${JSON.stringify(key)}:${item}`;
        first = false;
      }
      return `${text}}`;
    }
    default:
      return undefined;
  }
}
