// Spreadsheet formula injection: a cell a spreadsheet would run as a formula gets a leading `'`.
// Spreadsheets skip leading blanks before they look, and read the full-width and small-form signs
// (＝ ＋ － ＠ ﹢ ﹣ ﹦) as formula starts too.
const formulaSigns = new Set(['=', '+', '-', '@', '＝', '＋', '－', '＠', '﹢', '﹣', '﹦']);
/** Control characters that also start a formula in some spreadsheets when they lead a cell. */
const leadingControls = new Set(['\t', '\r', '\n']);

export function neutraliseFormula(cell: string): string {
  if (cell.length === 0) return cell;
  if (leadingControls.has(cell[0]!)) return `'${cell}`;
  const first = cell.trimStart()[0];
  return first !== undefined && formulaSigns.has(first) ? `'${cell}` : cell;
}
