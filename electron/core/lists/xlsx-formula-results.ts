// A sheet's XML on its way to exceljs' row parser, with one thing put right: exceljs reads a formula's
// cached value as a number whatever its type, so a formula showing FALSE came back as 0 and one showing
// an error (#DIV/0!) as NaN. Such a cell (t="b" or t="e" with an <f>) is handed on as the text it shows
// (t="str"). The text is decoded as a stream, so a character split between two chunks stays whole.
const typedFormulaCell = /<c\b[^>]*?\st="([be])"[^>]*?(?<!\/)>[\s\S]*?<\/c>/g;

function asShownText(cell: string, type: string): string {
  if (!cell.includes('<f')) return cell;
  return cell
    .replace(/\st="[be]"/, ' t="str"')
    .replace(/<v>([^<]*)<\/v>/, (_, value: string) =>
      type === 'b' ? `<v>${value.trim() === '1' ? 'TRUE' : 'FALSE'}</v>` : `<v>${value}</v>`,
    );
}

export async function* typedFormulaResults(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  let carried = '';
  for await (const chunk of chunks) {
    const text = carried + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    // Up to the last whole cell: a cell cut by the chunk's end waits for the next chunk.
    const end = text.lastIndexOf('</c>');
    if (end === -1) {
      carried = text;
      continue;
    }
    carried = text.slice(end + 4);
    yield text.slice(0, end + 4).replace(typedFormulaCell, (cell, type: string) => asShownText(cell, type));
  }
  const rest = carried + decoder.decode();
  if (rest) yield rest.replace(typedFormulaCell, (cell, type: string) => asShownText(cell, type));
}
