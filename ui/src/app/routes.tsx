/** Routes: the contract's real URLs, each page loaded lazily (React.lazy) behind one Suspense. */
import { lazy, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Loading } from '../components/common/loading';

const RunsPage = lazy(() => import('../pages/runs/runs-page'));
const RunPage = lazy(() => import('../pages/runs/run-page'));
const TestsPage = lazy(() => import('../pages/tests/tests-page'));
const TestPage = lazy(() => import('../pages/tests/test-page'));
const MachinesPage = lazy(() => import('../pages/machines/machines-page'));
const ConfigsPage = lazy(() => import('../pages/configs/configs-page'));
const DashboardsPage = lazy(() => import('../pages/dashboards/dashboards-page'));
const DashboardPage = lazy(() => import('../pages/dashboards/dashboard-page'));
const GitReposPage = lazy(() => import('../pages/git-repos/git-repos-page'));
const EnvVarsPage = lazy(() => import('../pages/env-vars/env-vars-page'));
const McpServersPage = lazy(() => import('../pages/mcp-servers/mcp-servers-page'));
const ApiTokensPage = lazy(() => import('../pages/settings/api-tokens/api-tokens-page'));
const WebhooksPage = lazy(() => import('../pages/settings/webhooks/webhooks-page'));
const MembersPage = lazy(() => import('../pages/settings/members/members-page'));
const AccessControlsPage = lazy(() => import('../pages/settings/access-controls/access-controls-page'));
const WorkspaceSettingsPage = lazy(() => import('../pages/settings/workspace/workspace-page'));
const AuditLogPage = lazy(() => import('../pages/audit-log/audit-log-page'));
const NotFoundPage = lazy(() => import('./not-found-page'));

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
        <Route path="/runs" component={RunsPage} />
        <Route path="/runs/:id" component={RunPage} />
        <Route path="/tests" component={TestsPage} />
        <Route path="/tests/:id" component={TestPage} />
        <Route path="/machines" component={MachinesPage} />
        <Route path="/configs" component={ConfigsPage} />
        <Route path="/dashboards" component={DashboardsPage} />
        <Route path="/dashboards/:id" component={DashboardPage} />
        <Route path="/git-repos" component={GitReposPage} />
        <Route path="/settings/env-vars" component={EnvVarsPage} />
        <Route path="/settings/mcp-servers" component={McpServersPage} />
        <Route path="/settings">
          <Redirect to="/settings/workspace" replace />
        </Route>
        <Route path="/settings/api-tokens" component={ApiTokensPage} />
        <Route path="/settings/webhooks" component={WebhooksPage} />
        <Route path="/settings/members" component={MembersPage} />
        <Route path="/settings/access-controls" component={AccessControlsPage} />
        <Route path="/settings/workspace" component={WorkspaceSettingsPage} />
        <Route path="/audit-log" component={AuditLogPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
