import type { JobOverview, ListPreview as Preview } from '../../../electron/common/contract.ts';
import { countOf, formatCount } from '../format.ts';
import { useState } from 'react';
import { ColumnPicker } from './column-picker.tsx';
import { SheetPicker } from './sheet-picker.tsx';
import { ListPreview } from './list-preview.tsx';
import { useStateResetBy } from '../use-state-reset-by.ts';
import './job-review.css';

type JobReviewProps = {
  job: JobOverview;
  preview?: Preview;
  busy: boolean;
  onColumn(column: string): void;
  /** Another sheet of a workbook. */
  onSheet(sheet: string): void;
  /** Reuse verdicts earlier lists got (the verdict cache), or check every address. */
  onUseCache(use: boolean): void;
  /** `limit`: send only the first this many addresses (what the credits cover). */
  onStart(limit?: number): void;
  onClose(): void;
};

function costLine(job: JobOverview): string {
  const { cost } = job;
  if (cost.checks === 0 && cost.cached > 0) return 'Nothing to send: every address has a verdict from an earlier list.';
  if (cost.checks === 0) return 'Nothing to check: every row was settled locally.';
  if (cost.mode === 'sandbox') {
    const where = job.ownService ? "Sift's own service" : 'the hosted service';
    return `${countOf(cost.checks, 'demo verdict')} from ${where} with a sandbox key: scripted, no mail server is asked, no credits are spent.`;
  }
  // Only what the service said: a balance it does not give is not taken for none.
  const known = [
    ...(cost.freeRemaining === undefined ? [] : [`${formatCount(cost.freeRemaining)} free checks left this month`]),
    ...(cost.balance === undefined ? [] : [`a balance of ${formatCount(cost.balance)}`]),
  ];
  if (known.length === 0) {
    return `${countOf(cost.checks, 'check')}. The service does not say its balance, so Sift cannot tell whether the account covers them.`;
  }
  const available = known.join(' and ');
  return cost.covered
    ? `${countOf(cost.checks, 'check')}, covered by ${available}.`
    : `${countOf(cost.checks, 'check')}, but only ${available}.`;
}

/** What the verdict cache gives this list, and the choice to check every address instead. */
function CacheChoice({ job, busy, onUseCache }: Pick<JobReviewProps, 'job' | 'busy' | 'onUseCache'>) {
  const { cached } = job.cost;
  // The box shows the choice at once; the list is read again in main, and the job then says what holds.
  const [wanted, setWanted] = useStateResetBy(() => job.useCache, job);
  const rereading = wanted !== job.useCache;
  return (
    <div className="cache-choice" data-testid="cache-choice">
      {rereading && <p role="status">Reading the list again…</p>}
      {!rereading && job.useCache && cached > 0 && (
        <p data-testid="cached-count">
          {countOf(cached, 'address has', 'addresses have')} a {job.demo ? 'demo ' : ''}verdict from an earlier list,
          young enough to reuse: not sent, free. The results mark each as reused, with the day it was checked.
        </p>
      )}
      <label className="choice">
        <input
          type="checkbox"
          data-testid="use-cache"
          checked={wanted}
          disabled={busy}
          onChange={() => {
            setWanted(!wanted);
            onUseCache(!wanted);
          }}
        />{' '}
        Reuse verdicts from earlier lists
      </label>
    </div>
  );
}

export function JobReview({ job, preview, busy, onColumn, onSheet, onUseCache, onStart, onClose }: JobReviewProps) {
  const columns =
    job.headers.length > 0
      ? job.headers
      : Array.from({ length: Math.max(1, preview?.headers.length ?? 1) }, (_, i) => `Column ${i + 1}`);
  // A column where most rows hold no address is most likely not the email column.
  const holding = job.precheck.toCheck + job.precheck.duplicates;
  const fewAddresses = job.rows > 0 && holding < job.rows / 2;
  const [confirmed, setConfirmed] = useState(false);
  // What the credits cover when they do not cover the whole list.
  const affordable = Math.min(job.cost.checks, (job.cost.freeRemaining ?? 0) + Math.max(0, job.cost.balance ?? 0));
  const stats: [string, number, string][] = [
    ['Rows', job.rows, 'rows'],
    ['To check', job.precheck.toCheck, 'to-check'],
    ['Duplicates', job.precheck.duplicates, 'duplicates'],
    ['Bad syntax', job.precheck.badSyntax, 'bad-syntax'],
    ['No address', job.precheck.noAddress, 'no-address'],
    ...(job.precheck.suppressed
      ? [['Do not mail', job.precheck.suppressed, 'suppressed'] as [string, number, string]]
      : []),
    ...(job.precheck.ruled ? [['Your rules', job.precheck.ruled, 'ruled'] as [string, number, string]] : []),
    ['Role', job.precheck.role, 'role'],
    ['Disposable', job.precheck.disposable, 'disposable'],
    ['Typos', job.precheck.suggestions, 'typos'],
  ];
  return (
    <section className="card" aria-label="Review the list">
      <header className="card__header">
        <div>
          <h2 className="card__title" data-testid="job-file-name">
            {job.fileName}
          </h2>
          {preview?.sheets && preview.sheet && preview.sheets.length > 1 && (
            <SheetPicker sheets={preview.sheets} current={preview.sheet} busy={busy} onChoose={onSheet} />
          )}
          <ColumnPicker columns={columns} current={job.columnIndex} busy={busy} onChoose={onColumn} />
        </div>
        <button type="button" className="button" onClick={onClose} disabled={busy}>
          Choose another file
        </button>
      </header>
      <dl className="stats" data-testid="precheck">
        {stats.map(([label, value, id]) => (
          <div className="stat" key={id} data-testid={`precheck-${id}`}>
            <dt>{label}</dt>
            <dd>{formatCount(value)}</dd>
          </div>
        ))}
      </dl>
      <p className="note">
        Duplicates, bad syntax, empty cells and addresses on your do-not-mail list are settled here and never sent or
        billed. Typos are shown, never fixed silently.
      </p>
      <div className={`cost${job.cost.covered ? '' : ' cost--short'}`} data-testid="cost">
        {costLine(job)}
      </div>
      <CacheChoice job={job} busy={busy} onUseCache={onUseCache} />
      {fewAddresses && (
        <div className="alert alert--warning" data-testid="few-addresses">
          <p>
            Only {formatCount(holding)} of {formatCount(job.rows)} rows hold an address in “{columns[job.columnIndex]}”.
            Is this the email column?
          </p>
          <label className="choice">
            <input type="checkbox" checked={confirmed} onChange={() => setConfirmed(!confirmed)} /> Clean this column
            anyway
          </label>
        </div>
      )}
      {preview && <ListPreview preview={preview} highlightColumn={job.columnIndex} />}
      <footer className="card__footer">
        {!job.cost.covered && affordable > 0 && (
          <button
            type="button"
            className="button"
            data-testid="start-limited"
            disabled={busy || (fewAddresses && !confirmed)}
            onClick={() => onStart(affordable)}
          >
            Clean only the first {formatCount(affordable)}
          </button>
        )}
        <button
          type="button"
          className="button button--primary"
          data-testid="start-button"
          disabled={
            busy || !job.cost.covered || (job.cost.checks === 0 && job.rows === 0) || (fewAddresses && !confirmed)
          }
          onClick={() => onStart()}
        >
          {job.cost.checks === 0
            ? 'Finish'
            : job.cost.mode === 'sandbox'
              ? `Demo-clean ${countOf(job.cost.checks, 'address', 'addresses')}`
              : `Clean ${countOf(job.cost.checks, 'address', 'addresses')}`}
        </button>
      </footer>
    </section>
  );
}
