// Spreadsheet formula injection: a cell that a spreadsheet would run as a formula gets a leading `'`.
const formulaStarts = new Set(['=', '+', '-', '@', '\t', '\r', '\n', '＝', '＋', '－', '＠']);

export function neutraliseFormula(cell: string): string {
  return cell.length > 0 && formulaStarts.has(cell[0]!) ? `'${cell}` : cell;
}
