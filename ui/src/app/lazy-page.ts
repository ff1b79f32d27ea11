/**
 * A page loaded on first use, without Suspense: a page whose code is here renders in the same render; one whose code is
 * not shows the loading line until it arrives, then renders at once. React.lazy suspended instead, and React holds the
 * content back behind a shown fallback for up to ~300 ms (it throttles fallback reveals): a dashboard opened from
 * inside the app before its code had loaded in the background took 500 ms instead of 200. A chunk that fails to load
 * is thrown at render, to the error boundary, as React.lazy did.
 */
import { type ComponentType, createElement, useEffect, useState } from 'react';
import { Loading } from '../components/common/loading';
import type { QueryClient } from '@tanstack/react-query';

/** What a page's `prefetch` gets: the URL's parameters and query, and the app's query client. */
export interface PageDataArgs {
  params: Record<string, string>;
  search: URLSearchParams;
  queryClient: QueryClient;
}

/** A page's module: the page, and optionally its first reads, started before it renders (app/early-page-data.ts). */
type PageModule = { default: ComponentType; prefetch?: (args: PageDataArgs) => unknown };

export interface LazyPage {
  /** Loads the page's code (once); resolves when it is here. */
  load(): Promise<PageModule>;
  Page: ComponentType<object>;
}

export function lazyPage(importer: () => Promise<PageModule>): LazyPage {
  let module: PageModule | null = null;
  let loading: Promise<PageModule> | null = null;
  const load = () =>
    (loading ??= importer().then(
      (loaded) => (module = loaded),
      (error: unknown) => {
        loading = null; // a failed chunk (the server restarted mid-deploy, say) is asked for again next time
        throw error;
      },
    ));
  function Page(props: object) {
    const [failed, setFailed] = useState<{ error: unknown } | null>(null);
    const [, setArrived] = useState(0);
    const here = module;
    useEffect(() => {
      if (here) return;
      let live = true;
      load().then(
        () => live && setArrived((n) => n + 1),
        (error: unknown) => live && setFailed({ error }),
      );
      return () => {
        live = false;
      };
    }, [here]);
    if (failed) throw failed.error;
    return here ? createElement(here.default, props) : createElement(Loading, null);
  }
  return { load, Page };
}
