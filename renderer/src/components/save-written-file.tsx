import { useState } from 'react';
import type { ExportFile } from '../../../electron/common/contract.ts';
import { downloadFile, errorMessage } from '../bridge.ts';
import { useAppStore } from '../stores/app-store.ts';
import { cleanActions } from '../stores/clean-store.ts';
import { formatBytes } from '../format.ts';

/**
 * A file main writes when asked (a list's report, a sync's refusals), to hand on: the desktop app asks where
 * to save it; the browser offers it as a link to download. `id` names the test ids: save-…, …-saved,
 * download-….
 */
export function SaveWrittenFile(props: {
  id: string;
  /** The button, and what a saved file is called ("Report"). */
  label: string;
  busyLabel: string;
  savedLabel: string;
  write: () => Promise<ExportFile>;
}) {
  const desktop = useAppStore((state) => state.info?.transport === 'ipc');
  const [state, setState] = useState<{ busy: boolean; file?: ExportFile; error?: string }>({ busy: false });
  const save = async () => {
    setState({ busy: true });
    try {
      const file = await props.write();
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
        data-testid={`save-${props.id}`}
      >
        {state.busy ? props.busyLabel : props.label}
      </button>
      {state.file &&
        (desktop ? (
          <span className="note" role="status" data-testid={`${props.id}-saved`}>
            {props.savedLabel}: {state.file.name} · {formatBytes(state.file.sizeBytes)}
          </span>
        ) : (
          // A link the person clicks: a browser downloads a file only on a click of its own.
          <a
            className="button button--primary"
            href={state.file.downloadPath}
            download={state.file.name}
            onClick={(event) => {
              event.preventDefault();
              void downloadFile(state.file!.downloadPath, state.file!.name);
            }}
            ref={(link) => link?.focus()}
            data-testid={`download-${props.id}`}
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
