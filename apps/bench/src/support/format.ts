import type { Stat } from './stats';

/**
 * A number for a table: thousands separators from 1,000 up, one decimal from 10, two
 * below, three significant digits under 0.1.
 */
export function formatNumber(value: number): string {
  const magnitude = Math.abs(value);
  if (!Number.isFinite(value)) return String(value);
  if (magnitude >= 100) return Math.round(value).toLocaleString('en-US');
  if (magnitude >= 10) return value.toFixed(1);
  if (magnitude >= 0.1 || value === 0) return value.toFixed(2);
  return value.toPrecision(3);
}

/** `1.23 (1.10 – 1.40)`: the median, then min and max. */
export function formatStat(stat: Stat, unit = ''): string {
  const suffix = unit === '' ? '' : ` ${unit}`;
  if (stat.min === stat.max) return `${formatNumber(stat.median)}${suffix}`;
  return `${formatNumber(stat.median)}${suffix} (${formatNumber(stat.min)} – ${formatNumber(stat.max)})`;
}

/** A millisecond count with its unit: `1,234 ms`. */
export function formatMs(value: number): string {
  return `${formatNumber(value)} ms`;
}

/** A signed difference in milliseconds: `+12 ms`, `−3.0 ms`. */
export function formatSignedMs(value: number): string {
  const sign = value < 0 ? '−' : '+';
  return `${sign}${formatNumber(Math.abs(value))} ms`;
}
