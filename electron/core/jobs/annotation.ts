// The sift_* columns the annotated file adds to each row, written once per address and reused for every
// row that holds it (a first occurrence and a repeat differ only in billed and duplicate).
import { badSyntaxResult, noAddressResult, unverifiedResult } from '../../common/list-funnel.ts';
import type { VerdictColumns } from './list-store.ts';
import { column, hasFlag, type RowVerdict } from './row-verdicts.ts';

export const annotationColumns = [
  'sift_result',
  'sift_billed',
  'sift_duplicate',
  'sift_role',
  'sift_disposable',
  'sift_reason',
  'sift_suggestion',
  'sift_suggestion_accepted',
] as const;

/** The verdict shown for an address: its result, or `unverified` when the job ended before it was checked. */
export const resultOf = (address: VerdictColumns) => address[column.result] ?? unverifiedResult;

/**
 * Whether a row counts as a duplicate on the funnel: a repeat of an address to check. A repeat of bad
 * syntax stays bad syntax (the funnel counts it there, once per row).
 */
const isFunnelDuplicate = (verdict: RowVerdict) =>
  verdict.duplicate && verdict.address !== null && verdict.address[column.result] !== badSyntaxResult;

/** An address's columns with its two annotations (first occurrence, repeat) kept beside them once written. */
type Annotated = VerdictColumns & { 5?: string; 6?: string };

/**
 * The sift_* cells of a row as text, `before` and `after` around them; `cell` writes one cell as the
 * file writes it. true and false need no quotes or guard, so only the words from the service go to `cell`.
 */
export function annotationWriter(cell: (value: string) => string, delimiter: string, before = '', after = '') {
  const d = delimiter;
  const flagsOf = (billed: boolean, duplicate: boolean, role: boolean, disposable: boolean) =>
    `${billed}${d}${duplicate}${d}${role}${d}${disposable}`;
  const noAddressTail = `${before}${cell(noAddressResult)}${d}${flagsOf(false, false, false, false)}${d}${d}${d}false${after}`;
  const encode = (address: VerdictColumns, billed: boolean, duplicate: boolean) => {
    const reason = address[column.reason];
    const suggestion = address[column.suggestion];
    const flags = flagsOf(billed, duplicate, hasFlag(address, 'role'), hasFlag(address, 'disposable'));
    return (
      `${before}${cell(resultOf(address))}${d}${flags}${d}${reason ? cell(reason) : ''}` +
      `${d}${suggestion ? cell(suggestion) : ''}${d}${hasFlag(address, 'accepted')}${after}`
    );
  };
  return (verdict: RowVerdict): string => {
    const address = verdict.address as Annotated | null;
    if (!address) return noAddressTail;
    // Kept on the address's own array, which lives as long as its chunk of rows.
    // A credit is spent once per address: on its first row, not on its duplicates.
    if (isFunnelDuplicate(verdict)) return (address[6] ??= encode(address, false, true));
    return (address[5] ??= encode(address, hasFlag(address, 'billed'), false));
  };
}
