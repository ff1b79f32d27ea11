/** Entry point: applies the saved theme before the first paint, starts loading the page asked for, and renders the App. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyTheme, readTheme } from './app/theme';
import { preloadAllPages, preloadPageOf } from './app/routes';
import { startPageDataEarly } from './app/early-page-data';
import { whenAppQuiet } from './app/when-app-quiet';
import { queryClient } from './api/query-client';

applyTheme(readTheme());
// The page asked for loads while the app starts (its config, the signed-in user), not after; so do its first reads.
preloadPageOf(location.pathname);
startPageDataEarly(queryClient);
// The other pages' code once this page has settled (its queries answered, the browser idle): moving to one then renders
// it at once, and the page asked for never shares its connections or main thread with them.
whenAppQuiet(queryClient, preloadAllPages);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
