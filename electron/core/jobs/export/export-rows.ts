// How one row of the input becomes lines of the outputs: the annotated line, with formulas guarded and
// the sift_* columns, and the line of the cleaned and per-status files it goes to, with its address
// normalised. Two forms of the same rules: rows as text (csv-reader.ts), and rows as bytes
// (csv-byte-rows.ts), whose cells are copied as they are wherever their bytes are what the text form writes.
import { badSyntaxResult, ruledResult, suppressedResult } from '../../../common/list-funnel.ts';
import { keepDecider } from '../../../common/keep-choice.ts';
import type { ExportKind } from '../../../common/contract.ts';
import type { JobSettings } from '../job-settings.ts';
import { isNormalAddressBytes, normaliseAddress } from '../../email/address-precheck.ts';
import { cellFlag, cellText, type ByteRow } from '../../lists/csv-byte-rows.ts';
import { csvCellWriter, csvLineWriter, type BufferedFileWriter } from '../../lists/csv-writer.ts';
import { neutraliseFormula } from '../../lists/formula-guard.ts';
import { annotationBytesWriter, annotationWriter, resultOf, scoreFactsOf } from './annotation.ts';
import { bandOf, scoreValue } from '../../../common/risk-score.ts';
import { column, hasFlag, type RowVerdict } from './row-verdicts.ts';

export type ExportTargets = {
  annotated: BufferedFileWriter;
  cleaned: BufferedFileWriter;
  /** The per-status files asked for, by verdict or flag. */
  byKind: ReadonlyMap<ExportKind, BufferedFileWriter>;
};

export type ExportLayout = {
  delimiter: string;
  columnIndex: number;
  width: number;
  settings: JobSettings;
  /** The verdicts are a sandbox key's demo verdicts: the annotated file's reasons say so. */
  demo?: boolean;
  /** Where the scores' spread is counted, per verdict and band (risk-score.ts), address by address. */
  spread?: ScoreSpread;
};

/** How many addresses of each verdict score in each band: `{ catch_all: { '80+': 3, '50-79': 9, '<50': 1 } }`. */
export type ScoreSpread = Record<string, Record<string, number>>;

function countIn(spread: ScoreSpread, result: string, score: number) {
  const bands = (spread[result] ??= { '80+': 0, '50-79': 0, '<50': 0 });
  const band = bandOf(score);
  bands[band] = (bands[band] ?? 0) + 1;
}

/** Called with each promise of a write that had to wait for the disk. */
export type WaitFor = (wait: Promise<void> | undefined) => void;

/** The files besides the annotated one that a row goes to (none: `targets` is empty), and its address there. */
type Route = { targets: BufferedFileWriter[]; suggestion: string | null };

function createRouter({ settings, spread }: ExportLayout, { cleaned, byKind }: ExportTargets) {
  const kept = keepDecider(settings);
  const weights = settings.scoreWeights ?? {};
  const route: Route = { targets: [], suggestion: null };
  return (verdict: RowVerdict): Route => {
    route.targets.length = 0;
    const address = verdict.address;
    // Only the first row of an address to check goes to the cleaned and per-status files.
    if (!address || verdict.duplicate || address[column.result] === badSyntaxResult) return route;
    const result = resultOf(address);
    // A suppressed address goes to its own file, if asked for, and nowhere else.
    if (result === suppressedResult) {
      if (byKind.has('suppressed')) route.targets.push(byKind.get('suppressed')!);
      route.suggestion = null;
      return route;
    }
    const role = hasFlag(address, 'role');
    const disposable = hasFlag(address, 'disposable');
    const suggestion = address[column.suggestion];
    // An accepted suggestion is the address the person meant: it goes into the cleaned list, corrected.
    const accepted = hasFlag(address, 'accepted') && suggestion !== null;
    const typo = suggestion !== null && !accepted;
    const facts = scoreFactsOf(address);
    const score = facts ? scoreValue(facts, weights) : 0;
    if (facts && spread) countIn(spread, result, score);
    if (kept({ result, reason: address[column.reason], role, disposable, typo, accepted, score }))
      route.targets.push(cleaned);
    route.suggestion = accepted ? suggestion : null;
    // A rule's row goes to the cleaned list or nowhere: it has no verdict file.
    if (result === ruledResult) return route;
    const byResult = byKind.get(result as ExportKind);
    if (byResult) route.targets.push(byResult);
    if (role && byKind.has('role')) route.targets.push(byKind.get('role')!);
    if (disposable && byKind.has('disposable')) route.targets.push(byKind.get('disposable')!);
    return route;
  };
}

const annotationOptions = (layout: ExportLayout) => ({ demo: layout.demo, weights: layout.settings.scoreWeights });

const guardOf = (settings: JobSettings) => (settings.neutraliseFormulas ? neutraliseFormula : undefined);

/** Rows as text: each line quoted afresh from the row's cells. */
export function textRowWriter(layout: ExportLayout, targets: ExportTargets) {
  const { delimiter, columnIndex, width } = layout;
  const line = csvLineWriter(delimiter);
  const guard = guardOf(layout.settings);
  const cellOf = csvCellWriter(delimiter);
  const annotate = annotationWriter((value) => cellOf(value, guard), delimiter, annotationOptions(layout));
  const route = createRouter(layout, targets);
  return (cells: string[], verdict: RowVerdict, waitFor: WaitFor) => {
    // A short row is padded to the header's width, so the sift_* columns line up.
    const padding = cells.length < width ? delimiter.repeat(width - cells.length) : '';
    // The annotated line first: the cleaned line below puts the normal address into `cells` itself.
    waitFor(targets.annotated.write(`${line(cells, guard)}${padding}${delimiter}${annotate(verdict)}\r\n`));
    const { targets: to, suggestion } = route(verdict);
    if (to.length === 0) return;
    cells[columnIndex] = suggestion ?? normaliseAddress(cells[columnIndex] ?? '');
    const text = `${line(cells)}\r\n`;
    for (const writer of to) waitFor(writer.write(text));
  };
}

/** How the formula guard treats a cell by its first byte: 0 leaves it, 1 puts a `'` before it, 2 asks the guard. */
const guardByFirstByte = new Uint8Array(256).map((_, b) => {
  if (b === 0x3d || b === 0x2b || b === 0x2d || b === 0x40) return 1; // = + - @
  return b > 0x20 && b < 0x7f ? 0 : 2; // blanks, controls and non-ASCII (full-width signs) go to the guard
});

/** Whether cell `i` is unquoted and already the address it stands for (most are): no string needed. */
const isPlainNormalCell = (row: ByteRow, i: number) =>
  i < row.count && row.flags[i] === 0 && isNormalAddressBytes(row.bytes, row.cellStart[i]!, row.cellEnd[i]!);

/** Rows as bytes: runs of cells copied as they are, and only the cells that change written as text. */
export function byteRowWriter(layout: ExportLayout, targets: ExportTargets) {
  const { delimiter, columnIndex, width } = layout;
  const guard = guardOf(layout.settings);
  const cellLine = csvCellWriter(delimiter);
  const annotate = annotationBytesWriter((value) => cellLine(value, guard), delimiter, annotationOptions(layout));
  const route = createRouter(layout, targets);
  const paddings = Array.from({ length: width + 1 }, (_, n) => delimiter.repeat(n));

  /** Writes the row's cells, with `replacement` in place of cell `replaced` (-1: none). */
  function writeCells(
    to: BufferedFileWriter,
    row: ByteRow,
    waitFor: WaitFor,
    guarded: boolean,
    replaced = -1,
    replacement = '',
  ) {
    const { bytes, cellStart, cellEnd, flags } = row;
    // Bytes from `run` up to the cell in hand are still to be copied as they are.
    let run = row.start;
    for (let i = 0; i < row.count; i += 1) {
      const start = cellStart[i]!;
      const end = cellEnd[i]!;
      const cell = flags[i]!;
      const quoted = (cell & cellFlag.quoted) !== 0;
      const odd = (cell & cellFlag.odd) !== 0;
      // Written as they are: plain cells, and quoted cells whose value needs its quotes.
      const asIs = !odd && (!quoted || (cell & cellFlag.needsQuotes) !== 0);
      const valueStart = quoted ? start + 1 : start;
      const guarding = guarded && end - start > (quoted ? 2 : 0) ? guardByFirstByte[bytes[valueStart]!]! : 0;
      if (i !== replaced && asIs && guarding === 0) continue;
      if (i !== replaced && asIs && guarding === 1) {
        if (valueStart > run) waitFor(to.writeBytes(bytes, run, valueStart));
        waitFor(to.writeAscii("'"));
        run = valueStart;
        continue;
      }
      if (start > run) waitFor(to.writeBytes(bytes, run, start));
      if (i === replaced) waitFor(to.writeText(cellLine(replacement)));
      else if (!odd && guarding === 0) waitFor(to.writeBytes(bytes, start + 1, end - 1));
      else waitFor(to.writeText(cellLine(cellText(row, i), guarded ? guard : undefined)));
      run = end;
    }
    if (row.end > run) waitFor(to.writeBytes(bytes, run, row.end));
  }

  return (row: ByteRow, verdict: RowVerdict, waitFor: WaitFor) => {
    const { annotated } = targets;
    writeCells(annotated, row, waitFor, guard !== undefined);
    if (row.count < width) waitFor(annotated.writeAscii(paddings[width - row.count]!));
    const tail = annotate(verdict);
    waitFor(annotated.writeBytes(tail, 0, tail.length));
    const { targets: to, suggestion } = route(verdict);
    if (to.length === 0) return;
    // An address written as it stands in the input is copied with the cells around it.
    let replaced = -1;
    let address = '';
    if (suggestion !== null || !isPlainNormalCell(row, columnIndex)) {
      const cell = cellText(row, columnIndex);
      address = suggestion ?? normaliseAddress(cell);
      if (address !== cell) replaced = columnIndex;
    }
    for (const writer of to) {
      writeCells(writer, row, waitFor, false, replaced, address);
      waitFor(writer.writeAscii('\r\n'));
    }
  };
}
