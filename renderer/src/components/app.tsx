import { useEffect } from 'react';
import { sift } from '../bridge.ts';
import { useAppStore } from '../stores/app-store.ts';
import { useCleanStore } from '../stores/clean-store.ts';
import { DropZone } from './drop-zone.tsx';
import { JobProgress } from './job-progress.tsx';
import { JobResults } from './job-results.tsx';
import { JobReview } from './job-review.tsx';
import { RecentJobs } from './recent-jobs.tsx';

export function App() {
  const clean = useCleanStore();
  const { info, load } = useAppStore();

  useEffect(() => {
    void load();
    void useCleanStore.getState().loadRecent();
    return sift.jobs.onDidProgress((payload) => void useCleanStore.getState().progress(payload));
  }, [load]);

  return (
    <div className="app">
      <header className="app-header">
        <img className="app-header__logo" src="./icon.svg" alt="" width="28" height="28" />
        <h1 className="app-header__name">Sift</h1>
        <span className="app-header__tagline">Clean email lists, honestly.</span>
      </header>
      <main className="app-main">
        {clean.error && (
          <div className="alert" role="alert">
            <strong>
              {clean.stage === 'drop' && clean.fileName ? `Could not open ${clean.fileName}.` : 'Something went wrong.'}
            </strong>{' '}
            {clean.error}
          </div>
        )}
        {(clean.stage === 'drop' || clean.stage === 'reading') && (
          <>
            <DropZone busy={clean.stage === 'reading'} onFile={(file) => void clean.openFile(file)} />
            <RecentJobs jobs={clean.recent} onOpen={(jobId) => void clean.openJob(jobId)} />
          </>
        )}
        {clean.stage === 'review' && clean.job && (
          <JobReview
            job={clean.job}
            preview={clean.preview}
            busy={clean.busy}
            onColumn={(column) => void clean.changeColumn(column)}
            onStart={() => void clean.start()}
            onClose={clean.reset}
          />
        )}
        {clean.stage === 'running' && clean.job && (
          <JobProgress
            job={clean.job}
            busy={clean.busy}
            onCancel={() => void clean.cancel()}
            onResume={() => void clean.start()}
          />
        )}
        {clean.stage === 'finished' && clean.job?.summary && (
          <JobResults
            job={clean.job}
            keep={clean.keep}
            exported={clean.exported}
            busy={clean.busy}
            onToggleKeep={clean.toggleKeep}
            onExport={() => void clean.exportFiles()}
            onClose={clean.reset}
          />
        )}
      </main>
      <footer className="status-bar">
        <span data-testid="activity">{clean.job ? `${clean.job.fileName}: ${clean.job.phase}` : 'Ready'}</span>
        <span>{info ? `${info.name} ${info.version} · ${info.transport === 'ipc' ? 'desktop' : 'browser'}` : ''}</span>
      </footer>
    </div>
  );
}
