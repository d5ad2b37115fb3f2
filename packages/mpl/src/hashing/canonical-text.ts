// Strings in MPL canonical form: trimmed as Rust trims, quoted as JSON, keys ordered by code
// point. Kept apart from the value writer so the key-order cache can use them too.

/**
 * Orders strings by Unicode code point, which is the byte order of their UTF-8 encoding
 * (how the reference sorts keys). Plain `<` compares UTF-16 units and puts U+E000–U+FFFF
 * after characters outside the Basic Multilingual Plane.
 *
 * @internal
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index++) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a !== b) {
      if (a >= 0xd800 && b >= 0xd800) return shiftSurrogates(a) - shiftSurrogates(b);
      return a - b;
    }
  }
  return left.length - right.length;
}

function shiftSurrogates(unit: number): number {
  if (unit <= 0xdfff) return unit + 0x2000;
  return unit - 0x800;
}

// Rust's `str::trim` removes Unicode White_Space: unlike String.prototype.trim it keeps
// U+FEFF and removes U+0085. The reference hashes what Rust produces, so we trim the same set.

/** True for the characters Rust's `str::trim` removes (Unicode White_Space). */
function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** `text` without leading and trailing Unicode White_Space, as Rust's `str::trim` gives it. */
export function trimmed(text: string): string {
  const length = text.length;
  if (length === 0) return text;
  // Most strings start and end with a visible character: no scan, no copy.
  if (!isWhiteSpace(text.charCodeAt(0)) && !isWhiteSpace(text.charCodeAt(length - 1))) return text;
  let start = 0;
  let end = length;
  while (start < end && isWhiteSpace(text.charCodeAt(start))) start++;
  while (end > start && isWhiteSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/**
 * A JSON string literal, as `JSON.stringify` writes it. A scan of the UTF-16 units finds
 * what it would escape (quotes, backslashes, control characters, surrogates); a string
 * without any is quoted as is, without calling it (or a regular expression).
 */
export function quote(text: string): string {
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x20 || unit === 0x22 || unit === 0x5c || (unit >= 0xd800 && unit <= 0xdfff))
      return JSON.stringify(text);
  }
  return `"${text}"`;
}
