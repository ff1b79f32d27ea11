/**
 * A dashboard's first reads, started as soon as the signed-in user is known (before React has drawn the page): the
 * dashboard, the chosen run and the names, then, once the dashboard and the run are here, the queries of the panels
 * that will be near the viewport. The page then finds them in the query cache (same keys and options) instead of
 * asking in turn: the dashboard, then a render, then the panels, then another render. The chart code runs after the
 * queries are sent (its first run would otherwise hold them back on a cold page).
 */
import { machinesQuery, taskQuery, testsQuery } from '../../api/queries';
import type { Task } from '../../api/types';
import type { PageDataArgs } from '../../app/lazy-page';
import { panelsNearFirstViewport, preloadChart } from './dashboard-panel';
import { dashboardQuery, metricQuery, recentRunsQuery } from './dashboard-queries';
import { rangeChoiceOf, rangeOf, refetchMsOf, requestOf } from './metric-query';

export async function prefetchDashboard({ params, search, queryClient }: PageDataArgs): Promise<void> {
  const id = params.id;
  if (!id) return;
  const choice = rangeChoiceOf(search);
  const dashboard = queryClient.fetchQuery(dashboardQuery(id));
  const run = choice.kind === 'run' ? queryClient.fetchQuery(taskQuery(choice.runId)) : Promise.resolve(null);
  // The names of runs, tests and machines that label the series.
  void queryClient.prefetchQuery(recentRunsQuery);
  void queryClient.prefetchQuery(testsQuery);
  void queryClient.prefetchQuery(machinesQuery);
  const [{ panels }, span] = await Promise.all([dashboard, run as Promise<Task | null>]);
  const range = rangeOf(choice, span);
  if (!range) return;
  const refetchMs = refetchMsOf(choice, span);
  for (const panel of panels.slice(0, panelsNearFirstViewport())) void queryClient.prefetchQuery(metricQuery(requestOf(panel.query, range), refetchMs));
  // The chart code (fetched already: the page's HTML names it) runs once the queries are sent, while they are answered.
  preloadChart();
}
