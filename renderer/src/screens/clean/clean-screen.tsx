import { ColumnPicker } from '../../components/column-picker.tsx';
import { SheetPicker } from '../../components/sheet-picker.tsx';
import { DropZone } from '../../components/drop-zone.tsx';
import { ListPreview } from '../../components/list-preview.tsx';
import { JobProgress } from '../../components/job-progress.tsx';
import { JobResults } from '../../components/job-results.tsx';
import { JobReview } from '../../components/job-review.tsx';
import { RecentJobs } from '../../components/recent-jobs.tsx';
import { cleanActions, useCleanStore } from '../../stores/clean-store.ts';
import { useFocusHeading } from '../../use-focus-heading.ts';

/** Drop a list, review it, watch it being checked, get the results: one screen whose content follows the job. */
export function CleanScreen() {
  const stage = useCleanStore((state) => state.stage);
  const error = useCleanStore((state) => state.error);
  const fileName = useCleanStore((state) => state.fileName);
  const heading = useFocusHeading<HTMLHeadingElement>(stage);
  return (
    <>
      <h2 className="visually-hidden" tabIndex={-1} ref={heading}>
        Clean a list{fileName && stage !== 'drop' ? `: ${fileName}` : ''}
      </h2>
      {error && (
        <div className="alert" role="alert">
          <strong>
            {stage === 'pick'
              ? 'Sift could not tell which column holds the addresses.'
              : stage === 'drop' && fileName
                ? `Could not open ${fileName}.`
                : 'Something went wrong.'}
          </strong>{' '}
          {error}
        </div>
      )}
      {(stage === 'drop' || stage === 'reading') && <DropStage />}
      {stage === 'pick' && <PickStage />}
      {stage === 'review' && <ReviewStage />}
      {stage === 'running' && <RunningStage />}
      {stage === 'finished' && <FinishedStage />}
    </>
  );
}

function DropStage() {
  const stage = useCleanStore((state) => state.stage);
  const recent = useCleanStore((state) => state.recent);
  return (
    <>
      <DropZone busy={stage === 'reading'} onFile={(file) => void cleanActions.openFile(file)} />
      <RecentJobs jobs={recent} onOpen={(jobId) => void cleanActions.openJob(jobId)} />
    </>
  );
}

/** No email column was found: the file's first rows, and a picker to choose the column by hand. */
function PickStage() {
  const fileName = useCleanStore((state) => state.fileName);
  const preview = useCleanStore((state) => state.preview);
  const busy = useCleanStore((state) => state.busy);
  if (!preview) return null;
  return (
    <section className="card" aria-label="Choose the email column">
      <header className="card__header">
        <div>
          <h3 className="card__title">{fileName}</h3>
          <p className="card__meta">Choose the column that holds the email addresses.</p>
          {preview.sheets && preview.sheet && preview.sheets.length > 1 && (
            <SheetPicker
              sheets={preview.sheets}
              current={preview.sheet}
              busy={busy}
              onChoose={(sheet) => void cleanActions.chooseSheet(sheet)}
            />
          )}
          <ColumnPicker
            columns={preview.headers}
            current={null}
            busy={busy}
            onChoose={(column) => void cleanActions.changeColumn(column)}
          />
        </div>
        <button type="button" className="button" onClick={cleanActions.reset} disabled={busy}>
          Choose another file
        </button>
      </header>
      <ListPreview preview={preview} highlightColumn={-1} />
    </section>
  );
}

function ReviewStage() {
  const job = useCleanStore((state) => state.job);
  const preview = useCleanStore((state) => state.preview);
  const busy = useCleanStore((state) => state.busy);
  if (!job) return null;
  return (
    <JobReview
      key={`${job.jobId}:${job.columnIndex}`}
      job={job}
      preview={preview}
      busy={busy}
      onColumn={(column) => void cleanActions.changeColumn(column)}
      onSheet={(sheet) => void cleanActions.chooseSheet(sheet)}
      onUseCache={(use) => void cleanActions.useCache(use)}
      onStart={(limit) => void cleanActions.start(limit)}
      onClose={cleanActions.reset}
    />
  );
}

function RunningStage() {
  const job = useCleanStore((state) => state.job);
  const busy = useCleanStore((state) => state.busy);
  const canceling = useCleanStore((state) => state.canceling);
  if (!job) return null;
  return (
    <JobProgress
      job={job}
      busy={busy}
      canceling={canceling}
      onCancel={() => void cleanActions.cancel()}
      onResume={() => void cleanActions.start()}
    />
  );
}

function FinishedStage() {
  const job = useCleanStore((state) => state.job);
  const choices = useCleanStore((state) => state.choices);
  const exported = useCleanStore((state) => state.exported);
  const busy = useCleanStore((state) => state.busy);
  if (!job?.summary) return null;
  return (
    <JobResults
      job={job}
      choices={choices}
      exported={exported}
      busy={busy}
      onChoicesChange={cleanActions.setChoices}
      onExport={() => void cleanActions.exportFiles()}
      onRetry={() => void cleanActions.retry()}
      onClose={cleanActions.reset}
    />
  );
}
