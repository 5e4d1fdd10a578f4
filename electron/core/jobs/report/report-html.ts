// The pieces a list report is made of, as HTML text: every value escaped, the verdict chart drawn as
// inline SVG (no script, no font, no request to anything outside the file).
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export const formatCount = (count: number) => count.toLocaleString('en-US');

export function percentOf(part: number, whole: number): string {
  if (whole === 0) return '0%';
  const share = (part / whole) * 100;
  return `${share < 10 && share > 0 ? share.toFixed(1) : Math.round(share)}%`;
}

/** A table: a header row and body rows, each cell already HTML; the last column right-aligned when numeric. */
export function table(caption: string | undefined, header: string[], rows: string[][], className = ''): string {
  const head = header.map((cell) => `<th scope="col">${cell}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell, i) => (i === 0 ? `<th scope="row">${cell}</th>` : `<td>${cell}</td>`)).join('')}</tr>`,
    )
    .join('');
  const captioned = caption ? `<caption>${caption}</caption>` : '';
  return `<table class="${className}">${captioned}<thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export type Bar = { label: string; count: number; color: string };

/** Horizontal bars, one per verdict, with its count and share; drawn for print as well as the screen. */
export function barChart(bars: Bar[], total: number): string {
  const rowHeight = 26;
  const labelWidth = 110;
  const barWidth = 360;
  const height = bars.length * rowHeight + 4;
  const most = Math.max(1, ...bars.map((bar) => bar.count));
  const rows = bars
    .map((bar, i) => {
      const y = i * rowHeight + 4;
      const width = Math.max(bar.count > 0 ? 2 : 0, Math.round((bar.count / most) * barWidth));
      const label = `${formatCount(bar.count)} (${percentOf(bar.count, total)})`;
      return (
        `<text x="0" y="${y + 15}" class="chart__label">${escapeHtml(bar.label)}</text>` +
        `<rect x="${labelWidth}" y="${y}" width="${width}" height="18" rx="3" fill="${bar.color}"/>` +
        `<text x="${labelWidth + width + 6}" y="${y + 15}" class="chart__value">${label}</text>`
      );
    })
    .join('');
  const described = bars.map((bar) => `${bar.label}: ${formatCount(bar.count)}`).join(', ');
  return (
    `<svg class="chart" role="img" aria-label="Verdicts: ${escapeHtml(described)}" viewBox="0 0 ${labelWidth + barWidth + 130} ${height}" ` +
    `width="100%" xmlns="http://www.w3.org/2000/svg">${rows}</svg>`
  );
}

/** The report's look, for the screen and for print (A4 or Letter, at most two pages). */
export const reportStyle = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; font: 10.5pt/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1d2433; background: #fff; }
main { max-width: 180mm; margin: 0 auto; padding: 12mm 8mm; }
h1 { font-size: 18pt; margin: 0 0 2mm; }
h2 { font-size: 12pt; margin: 6mm 0 2mm; padding-bottom: 1mm; border-bottom: 1px solid #d6dae3; }
p { margin: 0 0 2mm; }
.meta { color: #4a5568; }
.how { padding: 3mm 4mm; border-radius: 2mm; background: #eef4ff; border: 1px solid #c7d7fe; }
.how--demo, .how--warn { background: #fffaeb; border-color: #fedf89; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 6mm; align-items: start; }
table { width: 100%; border-collapse: collapse; margin: 0 0 2mm; break-inside: avoid; }
caption { text-align: left; font-weight: 600; margin-bottom: 1mm; }
th, td { padding: 1mm 2mm; border-bottom: 1px solid #e6e9ef; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
td { text-align: right; white-space: nowrap; }
thead th { color: #4a5568; font-weight: 600; }
thead th:not(:first-child) { text-align: right; }
.funnel tbody tr.sub th { padding-left: 6mm; font-weight: normal; }
.chart { display: block; max-width: 150mm; margin: 2mm 0 3mm; }
.chart__label, .chart__value { font-size: 13px; fill: #1d2433; }
ul.advice { margin: 0; padding-left: 5mm; }
ul.advice li { margin-bottom: 1mm; }
footer { margin-top: 6mm; color: #6b7280; font-size: 9pt; }
section { break-inside: avoid; }
@page { margin: 12mm; }
@media print { main { padding: 0; max-width: none; } }
`;
