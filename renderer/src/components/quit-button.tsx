import { useState } from 'react';
import { sift } from '../bridge.ts';
import { useAppStore } from '../stores/app-store.ts';
import './quit-button.css';

/**
 * Quit, where the page is the app (the single executable's, which runs until it is quit): the page's own
 * way to stop Sift without finding its terminal. What it says afterwards stays, so the tab is not a dead app.
 */
export function QuitButton() {
  const canQuit = useAppStore((state) => state.info?.canQuit === true);
  const [state, setState] = useState<'running' | 'quitting' | 'stopped' | 'failed'>('running');
  if (!canQuit) return null;
  const quit = async () => {
    setState('quitting');
    try {
      await sift.app.quit();
      setState('stopped');
    } catch {
      setState('failed');
    }
  };
  if (state === 'stopped')
    return (
      <div className="quit-notice" role="alertdialog" aria-modal="true" aria-labelledby="quit-notice-title">
        <div className="quit-notice__card">
          <h2 id="quit-notice-title">Sift has stopped</h2>
          <p>
            You can close this tab. Lists being checked carry on from where they stopped the next time you start Sift.
          </p>
        </div>
      </div>
    );
  return (
    <button
      type="button"
      className="button quit-button"
      data-testid="quit-button"
      disabled={state === 'quitting'}
      title={state === 'failed' ? 'Sift could not be quit from here: press Ctrl-C in its window' : 'Stop Sift'}
      onClick={() => void quit()}
    >
      {state === 'quitting' ? 'Quitting…' : 'Quit'}
    </button>
  );
}
