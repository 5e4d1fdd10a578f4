// Spreadsheet formula injection: a cell a spreadsheet would run as a formula gets a leading `'`.
// Spreadsheets skip leading blanks before they look, and read the full-width and small-form signs
// (＝ ＋ － ＠ ﹢ ﹣ ﹦) as formula starts too.
const formulaSigns = new Set(['=', '+', '-', '@', '＝', '＋', '－', '＠', '﹢', '﹣', '﹦']);
/** Control characters that also start a formula in some spreadsheets when they lead a cell. */
const leadingControls = new Set(['\t', '\r', '\n']);
const blank = /\s/;

/** A letter or digit: most cells start with one, and are decided without looking further. */
const isPlainStart = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);

export function neutraliseFormula(cell: string): string {
  if (cell.length === 0 || isPlainStart(cell.charCodeAt(0))) return cell;
  const lead = cell[0]!;
  if (leadingControls.has(lead)) return `'${cell}`;
  let at = 0;
  while (at < cell.length && blank.test(cell[at]!)) at += 1;
  return at < cell.length && formulaSigns.has(cell[at]!) ? `'${cell}` : cell;
}
