export { formatBytes } from '../../electron/common/byte-sizes.ts';

export function describeDelimiter(delimiter: string): string {
  const names: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };
  return names[delimiter] ?? `"${delimiter}"`;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en');
}

/** A count with its noun: "1 address", "7 addresses" (`plural`: when adding an s will not do). */
export const countOf = (value: number, noun: string, plural = `${noun}s`) =>
  `${formatCount(value)} ${value === 1 ? noun : plural}`;

/** A share to one decimal: "42.9%" (nothing of nothing is "0%"). */
export const percent = (part: number, whole: number) =>
  whole === 0 ? '0%' : `${Math.round((part / whole) * 1000) / 10}%`;
