// Numbers in MPL canonical form, written as the reference (Rust's serde_json with ryu) writes them.

const twoToThe53 = 2 ** 53;
const twoToThe63 = 2 ** 63;

function roundHalfAwayFromZero(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

/**
 * A float as Rust's `ryu` (and so `serde_json`) writes it: shortest round-trip digits,
 * always with a fraction or an exponent (`2.0`, `0.000123`, `1e-7`, `1.5e20`).
 */
function formatFloat(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const length = digits.length;
  const pointPosition = Number(exponentText) + 1;
  const lastDigitExponent = pointPosition - length;
  if (lastDigitExponent >= 0 && pointPosition <= 16)
    return `${sign}${digits}${'0'.repeat(lastDigitExponent)}.0`;
  if (pointPosition > 0 && pointPosition <= 16)
    return `${sign}${digits.slice(0, pointPosition)}.${digits.slice(pointPosition)}`;
  if (pointPosition > -5 && pointPosition <= 0)
    return `${sign}0.${'0'.repeat(-pointPosition)}${digits}`;
  if (length === 1) return `${sign}${digits}e${pointPosition - 1}`;
  return `${sign}${digits[0]}.${digits.slice(1)}e${pointPosition - 1}`;
}

/**
 * A number in MPL canonical form: whole values as integers, others rounded to 6 decimals
 * (half away from zero), written exactly as the reference implementation writes them.
 *
 * @internal
 */
export function canonicalNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < twoToThe63) {
    if (value === 0) return '0';
    // Beyond 2^53 String() writes the shortest round-trip digits; Rust writes the exact integer.
    return Math.abs(value) < twoToThe53 ? String(value) : BigInt(value).toString();
  }
  let rounded = roundHalfAwayFromZero(value * 1_000_000) / 1_000_000;
  if (!Number.isFinite(rounded)) rounded = value;
  return formatFloat(rounded);
}
