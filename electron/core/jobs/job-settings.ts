// How a job cleans its list, with the defaults every way of running Sift shares (app, CLI, bench).
import type { NamedResult } from '../wire/spec.ts';
import type { OutputFormat } from '../../common/job-schemas.ts';
import type { ScoreWeights } from '../../common/risk-score.ts';

export type JobSettings = {
  /** The name the person knows the file by (an uploaded file is kept under the job's id). */
  displayName?: string;
  /** The email column as the person named it (a header or a 1-based number); detected when absent. */
  column?: string;
  /** For a workbook: the sheet read (chosen, else its first); absent for a CSV or text list. */
  sheet?: string;
  /** Verdicts kept in the cleaned list. */
  keep: string[];
  /** For a kept verdict, the score (0-100, risk-score.ts) an address must reach to be kept; none: all of them. */
  keepAtScore?: Record<string, number>;
  /** Points that replace the score table's (Settings, or `--score-weights FILE`); none: Sift's own table. */
  scoreWeights?: ScoreWeights;
  /** Addresses left out of the cleaned list whatever their verdict (typos: those with a suggestion). */
  remove: RemovedFlags;
  /** Guard cells a spreadsheet would run as formulas, in the annotated copy (the cleaned list keeps cells as they were). */
  neutraliseFormulas: boolean;
  /** Also write one file per verdict and flag (valid, invalid, catch-all, unknown, role, disposable). */
  perStatusFiles?: boolean;
  /** Start the CSV outputs with a byte-order mark, so Excel reads them as UTF-8. */
  bom: boolean;
  /** The outputs as CSV (the default) or as Excel workbooks (.xlsx); the summary is JSON either way. */
  format?: OutputFormat;
  /** Addresses per batch sent to the service; a longer list is sent as several. */
  addressesPerBatch: number;
  /** Send only the first this many addresses (what the credits cover); the rest stay unchecked. */
  sendLimit?: number;
  /** Reuse verdicts earlier lists got (the verdict cache), and keep this list's for the next ones. */
  useCache: boolean;
  /** How old a reused verdict may be, in days, whatever its kind; none: each kind's default (cache-policy.ts). */
  cacheMaxAgeDays?: number;
};

export { outputFormats, type OutputFormat } from '../../common/job-schemas.ts';

export type RemovedFlags = { role: boolean; disposable: boolean; typos: boolean };

/** What an export is asked for: the verdicts kept, and the job's own choice for whatever is left out. */
export type ExportChoicesOf = Pick<JobSettings, 'keep'> &
  Partial<Pick<JobSettings, 'keepAtScore' | 'remove' | 'perStatusFiles' | 'format'>>;

/** A finished job's settings for an export: the choices made now, the job's own for what they leave out. */
export function settingsForExport(
  settings: JobSettings,
  choices: ExportChoicesOf,
  scoreWeights: ScoreWeights,
): JobSettings {
  const { keep, keepAtScore = {}, remove = settings.remove, perStatusFiles = settings.perStatusFiles } = choices;
  const format = choices.format ?? settings.format;
  return { ...settings, keep, keepAtScore, scoreWeights, remove, perStatusFiles, ...(format ? { format } : {}) };
}

const defaultKeep: NamedResult[] = ['valid'];
/** Disposable inboxes are gone within days: a list is better off without them unless asked. */
const defaultRemove: RemovedFlags = { role: false, disposable: true, typos: false };

export const defaultJobSettings: JobSettings = {
  keep: defaultKeep,
  remove: defaultRemove,
  neutraliseFormulas: true,
  bom: true,
  useCache: true,
  // Sift's own service takes a million addresses per batch; one upload per million is few enough
  // that the spec's five uploads a minute are never what a list waits on.
  addressesPerBatch: 1_000_000,
};

/**
 * Addresses per part on Sift's own service running beside the CLI on its own thread: several parts, so
 * the service checks one while the client reads the last (its upload budget has room for them).
 */
export const threadedServicePartSize = 100_000;

export function jobSettings(overrides: Partial<JobSettings> = {}): JobSettings {
  return { ...defaultJobSettings, ...overrides };
}
