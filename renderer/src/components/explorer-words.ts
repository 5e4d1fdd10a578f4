// The row explorer's words: its filters as a person reads them, and a row's flags and reason in a line.
import { verdictFilters, type ExplorerFilter, type ExplorerRow } from '../../../electron/common/contract.ts';
import type { ExplorerSort } from '../../../electron/common/list-schemas.ts';
import { scoreMoves, scoreStarts } from '../../../electron/common/risk-score.ts';
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
  score_80: 'Scoring 80 or more',
  score_50: 'Scoring 50 to 79',
  score_low: 'Scoring below 50',
};

export const sortWords: Record<ExplorerSort, string> = {
  row: 'As in the file',
  score_high: 'Highest score first',
  score_low: 'Lowest score first',
};

/** A row's score and each of its reasons with its points and why (from main, with the weights in use), or none. */
export function scoreOfRow(row: ExplorerRow) {
  if (row.score === null) return undefined;
  const lines = row.scoreReasons.split(';').map((part) => {
    const [name, points] = part.split('=') as [string, string];
    const line = scoreStarts[name] ?? scoreMoves[name];
    // A catch-all domain's sends: the numbers behind the move, not only the rule.
    const learned = row.catchAllEvidence !== null && name in learnedMoves;
    const why = learned ? `${row.catchAllEvidence} ${line?.why ?? ''}` : (line?.why ?? '');
    return { name, points: Number(points), start: name in scoreStarts, why };
  });
  return { score: row.score, lines };
}
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
    row.earlierValidAt === null
      ? ''
      : `valid at an earlier check, ${new Date(row.earlierValidAt).toLocaleDateString()}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** Each move of the score's table in words; a start is its verdict's word. */
const moveWords: Record<string, string> = {
  role: 'Role address',
  disposable: 'Disposable',
  typo: 'Likely typo',
  mailbox_full: 'Mailbox full',
  greylisted: 'Greylisted',
  timeout: 'Timed out',
  reused: 'Reused verdict',
  free: 'Free mailbox',
  valid_earlier: 'Valid at an earlier check',
  catch_all_google: 'Catch-all at Google',
  catch_all_microsoft: 'Catch-all at Microsoft',
  accept_all_provider: 'Provider accepts every address',
  catch_all_bounces: 'Catch-all whose mail bounced',
  catch_all_delivers: 'Catch-all whose mail arrived',
};

/** The moves a catch-all domain's sends earn, whose numbers a row's reason gives. */
const learnedMoves = { catch_all_bounces: true, catch_all_delivers: true };

/** A line of the score's table in words, as the explorer's reasons and Settings name it. */
export const scoreLineWords = (name: string) => moveWords[name] ?? verdictWord(name);
