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
        <Route component={NotFoundPage} />
      </Switch>
    </Suspense>
  );
}
