import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// The page's colours and the app's building blocks first: each component's own styles come after them.
import './theme.css';
import './ui/ui.css';
import { App } from './components/app.tsx';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
