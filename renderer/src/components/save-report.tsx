import { useState } from 'react';
import type { ExportFile } from '../../../electron/common/contract.ts';
import { downloadFile, errorMessage, sift } from '../bridge.ts';
import { useAppStore } from '../stores/app-store.ts';
import { cleanActions } from '../stores/clean-store.ts';
import { formatBytes } from '../format.ts';

/**
 * "Save report…": the finished list's report, one HTML file to hand on (it prints to at most two pages).
 * The desktop app asks where to save it; the browser offers it as a link to download.
 */
export function SaveReport({ jobId }: { jobId: string }) {
  const desktop = useAppStore((state) => state.info?.transport === 'ipc');
  const [state, setState] = useState<{ busy: boolean; file?: ExportFile; error?: string }>({ busy: false });
  const save = async () => {
    setState({ busy: true });
    try {
      const file = await sift.jobs.report({ jobId });
      if (desktop) await cleanActions.saveCopy(file.downloadPath);
      setState({ busy: false, file });
    } catch (error) {
      setState({ busy: false, error: errorMessage(error) });
    }
  };
  return (
    <>
      <button
        type="button"
        className="button"
        disabled={state.busy}
        onClick={() => void save()}
        data-testid="save-report"
      >
        {state.busy ? 'Writing the report…' : 'Save report…'}
      </button>
      {state.file &&
        (desktop ? (
          <span className="note" role="status" data-testid="report-saved">
            Report: {state.file.name} · {formatBytes(state.file.sizeBytes)}
          </span>
        ) : (
          // A link the person clicks: a browser downloads an HTML file only on a click of its own.
          <a
            className="button button--primary"
            href={state.file.downloadPath}
            download={state.file.name}
            onClick={(event) => {
              event.preventDefault();
              void downloadFile(state.file!.downloadPath, state.file!.name);
            }}
            ref={(link) => link?.focus()}
            data-testid="download-report"
          >
            Download {state.file.name} ({formatBytes(state.file.sizeBytes)})
          </a>
        ))}
      {state.error && (
        <span className="alert" role="alert">
          {state.error}
        </span>
      )}
    </>
  );
}
