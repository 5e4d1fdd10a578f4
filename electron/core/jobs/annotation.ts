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

/** What a row without an address says in the annotated file. */
const noAddress = [noAddressResult, 'false', 'false', 'false', 'false', '', '', 'false'];

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

export function annotationWriter(encode: (cells: readonly string[]) => string) {
  const noAddressTail = encode(noAddress);
  const cells = (address: VerdictColumns, billed: boolean, duplicate: boolean) => [
    resultOf(address),
    // A credit is spent once per address: on its first row, not on its duplicates.
    String(billed),
    String(duplicate),
    String(hasFlag(address, 'role')),
    String(hasFlag(address, 'disposable')),
    address[column.reason] ?? '',
    address[column.suggestion] ?? '',
    String(hasFlag(address, 'accepted')),
  ];
  return (verdict: RowVerdict): string => {
    const address = verdict.address as Annotated | null;
    if (!address) return noAddressTail;
    // Kept on the address's own array, which lives as long as its chunk of rows.
    if (isFunnelDuplicate(verdict)) return (address[6] ??= encode(cells(address, false, true)));
    return (address[5] ??= encode(cells(address, hasFlag(address, 'billed'), false)));
  };
}
