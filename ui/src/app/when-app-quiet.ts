/**
 * Runs background work once the page has settled: loaded, its first queries answered, none in flight, the browser
 * idle. Loading every other page's code at the `load` event (as before) sent ~25 chunk requests beside a cold
 * dashboard's first API calls and panel queries: they queued behind each other on the six connections per origin and
 * compiled on the main thread while the charts waited.
 */
import type { QueryClient } from '@tanstack/react-query';

/** A page that asks nothing (or whose queries never settle) still gets the work this long after its load. */
const LATEST_MS = 10_000;

export function whenAppQuiet(client: QueryClient, work: () => void): void {
  let done = false;
  let answered = false;
  let loaded = document.readyState === 'complete';
  let unsubscribe = () => {};
  const busy = () => client.isFetching() + client.isMutating() > 0;
  const run = () => {
    if (done) return;
    done = true;
    unsubscribe();
    work();
  };
  const idle = (callback: () => void) =>
    typeof requestIdleCallback === 'function' ? requestIdleCallback(callback, { timeout: 2000 }) : setTimeout(callback, 50);
  const check = () => {
    if (done || !loaded || !answered || busy()) return;
    // Checked again once idle: a page often starts its next queries (panels, details) in the render after an answer.
    idle(() => {
      if (!busy()) run();
    });
  };
  unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') answered = true;
    check();
  });
  const onLoad = () => {
    loaded = true;
    setTimeout(run, LATEST_MS);
    check();
  };
  if (loaded) onLoad();
  else window.addEventListener('load', onLoad, { once: true });
}
