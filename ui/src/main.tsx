/** Entry point: applies the saved theme before the first paint, starts loading the page asked for, and renders the App. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyTheme, readTheme } from './app/theme';
import { preloadAllPages, preloadPageOf } from './app/routes';

applyTheme(readTheme());
// The page asked for loads while the app starts (its config, the signed-in user), not after.
preloadPageOf(location.pathname);
// The other pages' code as soon as the browser is idle after the load: moving to one then renders it at once.
window.addEventListener(
  'load',
  () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(preloadAllPages, { timeout: 1000 }) : setTimeout(preloadAllPages, 0)),
  { once: true },
);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
