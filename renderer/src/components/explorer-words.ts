// The row explorer's words: its filters as a person reads them, and a row's flags and reason in a line.
import { verdictFilters, type ExplorerFilter, type ExplorerRow } from '../../../electron/common/contract.ts';
import { verdictNote, verdictWord } from '../../../electron/common/reason-words.ts';

/** The filters that are verdicts are named as the verdicts are everywhere else. */
export const filterWords: Record<ExplorerFilter, string> = {
  all: 'Every row',
  ...(Object.fromEntries(verdictFilters.map((result) => [result, verdictWord(result)])) as Record<
    (typeof verdictFilters)[number],
    string
  >),
  duplicate: 'Duplicates',
  role: 'Role addresses',
  disposable: 'Disposable',
  typo: 'Likely typos',
};
/** Flags and reason of a row, in words. */
export function notesOf(row: ExplorerRow, demo: boolean): string {
  return [
    row.duplicate ? 'duplicate' : '',
    row.role ? 'role' : '',
    row.disposable ? 'disposable' : '',
    row.suggestion && !row.accepted ? `did you mean ${row.suggestion}?` : '',
    row.accepted ? `corrected to ${row.suggestion}` : '',
    verdictNote(row, demo),
    row.cachedAt === null ? '' : `reused from an earlier list, checked ${new Date(row.cachedAt).toLocaleDateString()}`,
  ]
    .filter(Boolean)
    .join(' · ');
}
