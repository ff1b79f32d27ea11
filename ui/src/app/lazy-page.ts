/**
 * A page loaded on first use that renders without suspending once its code is here: React.lazy suspends at a page's
 * first render even when the module has loaded (its promise settles a microtask later), and React then holds the page
 * back behind the fallback for up to ~300 ms (it throttles fallback reveals). A loaded module is handed over through a
 * thenable that answers at once, so a preloaded page shows in the same render.
 */
import { type ComponentType, lazy, type LazyExoticComponent } from 'react';
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
  Page: LazyExoticComponent<ComponentType>;
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
  const settledAtOnce = (loaded: PageModule) => ({ then: (resolve: (value: PageModule) => void) => resolve(loaded) }) as unknown as Promise<PageModule>;
  return { load, Page: lazy(() => (module ? settledAtOnce(module) : load())) };
}
