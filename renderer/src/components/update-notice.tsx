import { useState } from 'react';
import { errorMessage, sift } from '../bridge.ts';
import { useAppStore } from '../stores/app-store.ts';
import './update-notice.css';

/**
 * "A new version is ready" in the status bar, when the feed has a newer Sift (asked at most once a day,
 * never while a list is being checked): what changed, and the same steps as `sift update`, taken only
 * when the person chooses Install.
 */
export function UpdateNotice() {
  const update = useAppStore((state) => state.update);
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState<{ text: string; failed: boolean } | undefined>();
  const [busy, setBusy] = useState(false);
  if (update?.state !== 'ready') return null;
  return (
    <span className="update-notice">
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        A new version is ready: Sift {update.version}
      </button>
      {open && (
        <section className="update-notice__panel" aria-label={`Sift ${update.version}`} data-testid="update-panel">
          <p>{update.message}</p>
          {update.changes && <pre className="update-notice__changes">{update.changes}</pre>}
          <p className="note">
            Install checks it as <code>sift update</code> does (the release's signature and its file's hash), puts it in
            this file's place and keeps this one as sift.previous (<code>sift update --rollback</code> puts it back).
          </p>
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              sift.app
                .installUpdate()
                .then((answer) => setSaid({ text: answer.message, failed: false }))
                .catch((error: unknown) => setSaid({ text: errorMessage(error), failed: true }))
                .finally(() => setBusy(false));
            }}
          >
            Install Sift {update.version}
          </button>
          {said && (
            <p role={said.failed ? 'alert' : 'status'} data-testid="update-said">
              {said.text}
            </p>
          )}
        </section>
      )}
    </span>
  );
}
