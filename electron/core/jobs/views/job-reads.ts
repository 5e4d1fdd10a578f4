// What the app reads of a job besides its overview: the first rows of its own input, its rows with
// their verdicts a page at a time (the explorer), and where its addresses live (providers, domains).
import { AppError } from '../../../common/app-error.ts';
import type { ExplorerRow, ListBreakdown, ListPreview } from '../../../common/contract.ts';
import type { ExplorerQuery } from '../../../common/list-schemas.ts';
import type { ScoreWeights } from '../../../common/risk-score.ts';
import { mailboxProviders } from '../../email/mailbox-providers.ts';
import { previewReadList } from '../../lists/csv-preview.ts';
import { displayNameOf, type JobRecord, type JobStore, type ListStore } from '../store/index.ts';
import type { RowExplorer } from './row-explorer.ts';
import type { ListOutcomes } from '../../../common/outcome-schemas.ts';
import { listOutcomes } from './list-outcomes.ts';

/** What the app reads of a job besides its overview. */
export type JobReads = {
  /** The first rows of the job's own input (a reopened job has no dropped file to read). */
  preview(jobId: string, maxRows: number): Promise<ListPreview>;
  /** A page of the job's rows with their verdicts (the row explorer). */
  rows(jobId: string, page: ExplorerQuery): Promise<{ total: number; rows: ExplorerRow[] }>;
  /** Accepts (or takes back) typo suggestions for one address or every address at a domain. */
  acceptSuggestions(
    jobId: string,
    target: { addressId: number } | { domain: string },
    accept: boolean,
  ): { changed: number };
  /** Mailbox providers, the ten most used domains of the job's addresses to check, and why unknowns are. */
  breakdown(jobId: string): ListBreakdown;
  /** What happened to the list's addresses after its check, from the outcomes read back since. */
  outcomes(jobId: string): ListOutcomes;
};

export function jobReads(
  store: JobStore,
  jobOrThrow: (jobId: string) => JobRecord,
  explorer: RowExplorer,
  /** The score's weights in use, which the results screen scores the groups with. */
  weights: () => ScoreWeights = () => ({}),
  /** The data folder, whose outcomes a list's addresses are looked up in. */
  dataDir?: string,
): JobReads {
  return {
    /** The first rows of the job's own input (a reopened job has no dropped file to read). */
    async preview(jobId: string, maxRows: number): Promise<ListPreview> {
      const job = jobOrThrow(jobId);
      const { sheet } = job.settings;
      const workbook = sheet === undefined ? undefined : { path: job.inputPath, sheet };
      return previewReadList(store.rowsPath(job), maxRows, displayNameOf(job), workbook).catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        throw new AppError('unreadable_file', `Sift cannot read "${displayNameOf(job)}" any more: ${why}`);
      });
    },

    /** A page of the job's rows with their verdicts (the row explorer). */
    rows: (jobId: string, page: ExplorerQuery) => explorer.page(jobOrThrow(jobId), page),

    /** Accepts (or takes back) typo suggestions for one address or every address at a domain. */
    acceptSuggestions: (jobId: string, target: { addressId: number } | { domain: string }, accept: boolean) => ({
      changed: explorer.acceptSuggestions(jobOrThrow(jobId), target, accept),
    }),

    /** Mailbox providers, the ten most used domains of the job's addresses to check, and why unknowns are. */
    breakdown(jobId: string): ListBreakdown {
      return listBreakdown(store.list(jobOrThrow(jobId).id), weights());
    },

    outcomes: (jobId: string) => {
      const job = jobOrThrow(jobId);
      return dataDir ? listOutcomes(store, job, dataDir) : { checkedAt: job.updatedAt, sentence: '', byVerdict: [] };
    },
  };
}

/** A list's breakdown, for the results screen and the report alike. */
export function listBreakdown(list: ListStore, scoreWeights: ScoreWeights): ListBreakdown {
  return {
    scoreWeights,
    providers: list.providerCounts(mailboxProviders),
    topDomains: list.domainCounts(10),
    unknownReasons: list.unknownReasonCounts(),
    scoreGroups: list.scoreGroups(),
  };
}
