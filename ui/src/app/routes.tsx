/** Routes: the contract's real URLs, each page's code loaded on first use (lazyPage: no Suspense) or early (preloadPageOf). */
import { lazy, Suspense } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Redirect, Route, Switch } from 'wouter';
import { Loading } from '../components/common/loading';
import { lazyPage } from './lazy-page';

/** The URLs with a page of their own and how each page's code is loaded (on first use, or early: preloadPageOf). */
const pageRoutes = (
  [
    ['/runs', () => import('../pages/runs/runs-page')],
    ['/runs/:id', () => import('../pages/runs/run-page')],
    ['/tests', () => import('../pages/tests/tests-page')],
    ['/tests/:id', () => import('../pages/tests/test-page')],
    ['/machines', () => import('../pages/machines/machines-page')],
    ['/configs', () => import('../pages/configs/configs-page')],
    ['/dashboards', () => import('../pages/dashboards/dashboards-page')],
    ['/dashboards/:id', () => import('../pages/dashboards/dashboard-page')],
    ['/git-repos', () => import('../pages/git-repos/git-repos-page')],
    ['/settings/env-vars', () => import('../pages/env-vars/env-vars-page')],
    ['/settings/mcp-servers', () => import('../pages/mcp-servers/mcp-servers-page')],
    ['/settings/api-tokens', () => import('../pages/settings/api-tokens/api-tokens-page')],
    ['/settings/webhooks', () => import('../pages/settings/webhooks/webhooks-page')],
    ['/settings/members', () => import('../pages/settings/members/members-page')],
    ['/settings/access-controls', () => import('../pages/settings/access-controls/access-controls-page')],
    ['/settings/workspace', () => import('../pages/settings/workspace/workspace-page')],
    ['/audit-log', () => import('../pages/audit-log/audit-log-page')],
  ] as const
).map(([pattern, importer]) => ({ pattern, ...lazyPage(importer) }));
const NotFoundPage = lazy(() => import('./not-found-page'));

/** Whether a path matches a route pattern of fixed segments and `:name` parameters (as wouter matches them). */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const have = (pathname.replace(/\/+$/, '') || '/').split('/');
  return want.length === have.length && want.every((segment, i) => (segment.startsWith(':') ? have[i] !== '' : segment === have[i]));
}

/**
 * Starts loading the page of this path while the app still starts (its config, the signed-in user): the page's code
 * then arrives beside that work instead of after it. A path without a page of its own loads nothing.
 */
export function preloadPageOf(pathname: string): void {
  void pageRoutes.find((route) => matchesPattern(route.pattern, pathname))?.load().catch(() => undefined);
}

/** A path's values for a pattern's `:name` segments (the pattern matched already). */
function paramsOf(pattern: string, pathname: string): Record<string, string> {
  const have = (pathname.replace(/\/+$/, '') || '/').split('/');
  const params: Record<string, string> = {};
  pattern.split('/').forEach((segment, i) => {
    if (!segment.startsWith(':')) return;
    try {
      params[segment.slice(1)] = decodeURIComponent(have[i] ?? '');
    } catch {
      params[segment.slice(1)] = have[i] ?? ''; // a malformed escape: the page gets it as written, and answers its 404
    }
  });
  return params;
}

/**
 * Starts the first reads of the page at this path (those its module's `prefetch` names) into the query cache, once its
 * code is here. A page without `prefetch` reads when it renders, as always.
 */
export function prefetchPageData(pathname: string, search: string, queryClient: QueryClient): void {
  const route = pageRoutes.find((one) => matchesPattern(one.pattern, pathname));
  if (!route) return;
  void route
    .load()
    .then((module) => module.prefetch?.({ params: paramsOf(route.pattern, pathname), search: new URLSearchParams(search), queryClient }))
    .catch(() => undefined);
}

/** Loads every page's code (the app calls it once it is idle), so moving between pages never waits for a chunk. */
export function preloadAllPages(): void {
  for (const route of pageRoutes) void route.load().catch(() => undefined);
}

export function Routes() {
  return (
    <Suspense fallback={<Loading />}>
      <Switch>
        <Route path="/">
          <Redirect to="/runs" replace />
        </Route>
        <Route path="/signin-callback">
          <Redirect to="/runs" replace />
        </Route>
        <Route path="/signout-callback">
          <Redirect to="/runs" replace />
        </Route>
        <Route path="/settings">
          <Redirect to="/settings/workspace" replace />
        </Route>
        {pageRoutes.map(({ pattern, Page }) => (
          <Route key={pattern} path={pattern} component={Page} />
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
