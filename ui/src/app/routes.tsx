/** Routes: the contract's real URLs, each page loaded lazily (React.lazy) behind one Suspense. */
import { lazy, Suspense, type ComponentType } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Loading } from '../components/common/loading';

type PageModule = Promise<{ default: ComponentType }>;

/** The URLs with a page of their own and how each page's code is loaded (on first use, or early: preloadPageOf). */
const pageRoutes: [pattern: string, load: () => PageModule][] = [
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
];

const pages = pageRoutes.map(([pattern, load]) => [pattern, lazy(load)] as const);
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
  const route = pageRoutes.find(([pattern]) => matchesPattern(pattern, pathname));
  void route?.[1]().catch(() => undefined);
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
        {pages.map(([pattern, Page]) => (
          <Route key={pattern} path={pattern} component={Page} />
        ))}
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
