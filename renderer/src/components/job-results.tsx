import { DemoNotice } from './demo-notice.tsx';
import {
  keepableResults,
  type ExportChoices,
  type ExportFile,
  type JobOverview,
  type ListSummary,
} from '../../../electron/common/contract.ts';
import { downloadFile } from '../bridge.ts';
import { useAppStore } from '../stores/app-store.ts';
import { formatBytes, formatCount } from '../format.ts';
import { VerdictChart } from './verdict-chart.tsx';
import { ListOutcomesView } from './list-outcomes.tsx';
import { ListBreakdownView, useBreakdown } from './list-breakdown.tsx';
import { ScoreTriage } from './score-triage.tsx';
import { RowExplorer } from './row-explorer.tsx';
import { SaveReport } from './save-report.tsx';
import { describeChanges } from '../../../electron/common/changes-words.ts';
import { cleanActions, type KeepableResult } from '../stores/clean-store.ts';
import './job-results.css';

type JobResultsProps = {
  job: JobOverview;
  choices: ExportChoices;
  exported?: { files: ExportFile[]; summary: ListSummary };
  busy: boolean;
  onChoicesChange(choices: ExportChoices): void;
  onExport(): void;
  onClose(): void;
  /** Checks again what a canceled or stopped list left unchecked. */
  onRetry(): void;
};

const labels: Record<KeepableResult, string> = {
  valid: 'Valid',
  catch_all: 'Catch-all',
  unknown: 'Unknown',
  invalid: 'Invalid',
};
const fileLabels: Record<ExportFile['kind'], string> = {
  cleaned: 'Cleaned list',
  annotated: 'Annotated list',
  summary: 'Summary (JSON)',
  report: 'Report (HTML)',
  valid: 'Valid addresses',
  invalid: 'Invalid addresses',
  catch_all: 'Catch-all addresses',
  unknown: 'Unknown addresses',
  role: 'Role addresses',
  disposable: 'Disposable addresses',
  suppressed: 'Suppressed addresses',
  refused: 'Refused by the mailing tool',
  outcomes: 'Outcomes read back',
};

const removable: [keyof ExportChoices['remove'], string][] = [
  ['disposable', 'Disposable inboxes'],
  ['role', 'Role addresses (info@, sales@…)'],
  ['typos', 'Likely typos (gmial.com…)'],
];

export function JobResults({
  job,
  choices,
  exported,
  busy,
  onChoicesChange,
  onExport,
  onClose,
  onRetry,
}: JobResultsProps) {
  const { keep, remove, perStatusFiles, format } = choices;
  // The desktop app saves and shows files with the system's own dialogs; the browser downloads them.
  const desktop = useAppStore((state) => state.info?.transport === 'ipc');
  const toggleKeep = (result: KeepableResult) =>
    onChoicesChange({
      ...choices,
      keep: keep.includes(result) ? keep.filter((value) => value !== result) : [...keep, result],
    });
  const summary = job.summary!;
  const breakdown = useBreakdown(job.jobId);
  const cards: [string, number, string][] = [
    ['Valid', summary.valid, 'valid'],
    ['Invalid', summary.invalid, 'invalid'],
    ['Catch-all', summary.catch_all, 'catch-all'],
    ['Unknown', summary.unknown, 'unknown'],
    ['Duplicates', summary.duplicates, 'duplicates'],
    ['Bad syntax', summary.bad_syntax, 'bad-syntax'],
    ['No address', summary.no_address, 'no-address'],
    ...(summary.suppressed > 0 ? [['Do not mail', summary.suppressed, 'suppressed'] as [string, number, string]] : []),
    ...(summary.ruled ? [['Your rules', summary.ruled, 'ruled'] as [string, number, string]] : []),
    ['Role', summary.role, 'role'],
    ['Disposable', summary.disposable, 'disposable'],
    ['Likely typos', summary.typos, 'typos'],
    ['Billed', summary.billed, 'billed'],
    // Verdicts reused from earlier lists (the verdict cache): not sent this time, not billed.
    ...(summary.cached > 0 ? [['From earlier lists', summary.cached, 'cached'] as [string, number, string]] : []),
  ];
  const reused =
    summary.cached > 0 ? ` ${formatCount(summary.cached)} of them reused from earlier lists, not sent again.` : '';
  return (
    <section className="card" aria-label="Results">
      <header className="card__header">
        <div>
          <h2 className="card__title">{job.fileName}</h2>
          <p className="card__meta" data-testid="result-status">
            {job.phase === 'done'
              ? job.demo
                ? `Done: demo verdicts for ${formatCount(summary.to_check)} addresses from ${formatCount(summary.rows)} rows. No mail server was asked.${reused}`
                : reused
                  ? `Done: verdicts for ${formatCount(summary.to_check)} addresses from ${formatCount(summary.rows)} rows.${reused}`
                  : `Done: ${formatCount(summary.to_check)} addresses checked from ${formatCount(summary.rows)} rows.`
              : `${job.phase === 'canceled' ? 'Canceled' : 'Stopped'}: ${job.error ?? ''} ${formatCount(summary.unverified)} addresses were not checked.`}
          </p>
          {job.demo && <DemoNotice />}
          {summary.changed && (
            <p className="card__meta" data-testid="changes-since">
              <strong>Changed since the last check:</strong> {describeChanges(summary.changed)}
            </p>
          )}
        </div>
        <div className="card__actions">
          {job.phase !== 'done' && summary.unverified > 0 && (
            <button
              type="button"
              className="button button--primary"
              onClick={onRetry}
              disabled={busy}
              data-testid="retry"
            >
              Check the {formatCount(summary.unverified)} not checked
            </button>
          )}
          {job.phase === 'done' && <SaveReport jobId={job.jobId} />}
          <button type="button" className="button" onClick={onClose}>
            Clean another list
          </button>
        </div>
      </header>
      <VerdictChart summary={summary} demo={job.demo} />
      <ListBreakdownView breakdown={breakdown} demo={job.demo} />
      {job.phase === 'done' && <ListOutcomesView jobId={job.jobId} demo={job.demo} />}
      <dl className="stats" data-testid="summary">
        {cards.map(([label, value, id]) => (
          <div className={`stat stat--${id}`} key={id} data-testid={`summary-${id}`}>
            <dt>{label}</dt>
            <dd>{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
      <RowExplorer job={job} />
      {breakdown && (
        <ScoreTriage breakdown={breakdown} choices={choices} demo={job.demo} onChoicesChange={onChoicesChange} />
      )}
      <div className="export">
        <fieldset className="keep">
          <legend>Keep in the cleaned list</legend>
          {keepableResults.map((result) => (
            <label key={result} className="choice">
              <input type="checkbox" checked={keep.includes(result)} onChange={() => toggleKeep(result)} />{' '}
              {labels[result]}
            </label>
          ))}
        </fieldset>
        <fieldset className="keep">
          <legend>Also leave out</legend>
          {removable.map(([flag, label]) => (
            <label key={flag} className="choice">
              <input
                type="checkbox"
                checked={remove[flag]}
                onChange={() => onChoicesChange({ ...choices, remove: { ...remove, [flag]: !remove[flag] } })}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <label className="choice">
          <input
            type="checkbox"
            checked={perStatusFiles}
            onChange={() => onChoicesChange({ ...choices, perStatusFiles: !perStatusFiles })}
          />{' '}
          Also one file per verdict (valid, invalid, catch-all, unknown, role, disposable, suppressed)
        </label>
        <fieldset className="keep" data-testid="export-format">
          <legend>Files as</legend>
          {(
            [
              ['csv', 'CSV'],
              ['xlsx', 'Excel workbooks (.xlsx)'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="choice">
              <input
                type="radio"
                name="export-format"
                checked={format === value}
                onChange={() => onChoicesChange({ ...choices, format: value })}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <button
          type="button"
          className="button button--primary"
          data-testid="export-button"
          disabled={busy || keep.length === 0}
          onClick={onExport}
        >
          {busy ? 'Writing files…' : 'Export'}
        </button>
      </div>
      {exported && (
        <ul className="downloads" data-testid="downloads">
          {exported.files.map((file) => (
            <li key={file.kind}>
              <a
                className="button"
                href={file.downloadPath}
                download={file.name}
                onClick={(event) => {
                  event.preventDefault();
                  void downloadFile(file.downloadPath, file.name);
                }}
                data-testid={`download-${file.kind}`}
              >
                {fileLabels[file.kind]}
              </a>
              <span className="downloads__meta">
                {file.name} · {formatBytes(file.sizeBytes)}
              </span>
              {desktop && (
                <>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Save a copy of ${file.name}`}
                    onClick={() => void cleanActions.saveCopy(file.downloadPath)}
                  >
                    Save a copy…
                  </button>
                  <button
                    type="button"
                    className="button"
                    aria-label={`Show ${file.name} in its folder`}
                    onClick={() => void cleanActions.showInFolder(file.downloadPath)}
                  >
                    Show in folder
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
