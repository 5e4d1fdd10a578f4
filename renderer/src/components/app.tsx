import { useEffect } from 'react';
import { useAppStore } from '../stores/app-store.ts';
import { useListStore } from '../stores/list-store.ts';
import { DropZone } from './drop-zone.tsx';
import { ListPreview } from './list-preview.tsx';

export function App() {
  const { status, preview, error, fileName, openFile, reset } = useListStore();
  const { info, activity, load, subscribe } = useAppStore();

  useEffect(() => {
    void load();
    return subscribe();
  }, [load, subscribe]);

  return (
    <div className="app">
      <header className="app-header">
        <img className="app-header__logo" src="./icon.svg" alt="" width="28" height="28" />
        <h1 className="app-header__name">Sift</h1>
        <span className="app-header__tagline">Clean email lists, honestly.</span>
      </header>
      <main className="app-main">
        {status === 'error' && (
          <div className="alert" role="alert">
            <strong>{fileName ? `Could not open ${fileName}.` : 'Could not open the file.'}</strong> {error}
          </div>
        )}
        {status === 'ready' && preview ? (
          <ListPreview preview={preview} onClose={reset} />
        ) : (
          <DropZone busy={status === 'loading'} onFile={(file) => void openFile(file)} />
        )}
      </main>
      <footer className="status-bar">
        <span data-testid="activity">{activity ?? 'Ready'}</span>
        <span>{info ? `${info.name} ${info.version} · ${info.transport === 'ipc' ? 'desktop' : 'browser'}` : ''}</span>
      </footer>
    </div>
  );
}
