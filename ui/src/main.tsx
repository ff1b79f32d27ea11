/** Entry point: applies the saved theme before the first paint, starts loading the page asked for, and renders the App. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyTheme, readTheme } from './app/theme';
import { preloadPageOf } from './app/routes';

applyTheme(readTheme());
// The page asked for loads while the app starts (its config, the signed-in user), not after.
preloadPageOf(location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
