import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The page's colours and the app's building blocks first: each component's own styles come after them.
import './theme.css';
import './ui/ui.css';
import { App } from './components/app.tsx';
import { hasSession } from './bridge.ts';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {hasSession ? (
      <App />
    ) : (
      <main className="no-session">
        <h1>Sift</h1>
        <p>Open Sift with the link it printed when it started: that link carries its access token.</p>
      </main>
    )}
  </StrictMode>,
);
