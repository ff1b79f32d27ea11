/**
 * A run started from its test's page and followed live: log lines, chart points and the figures per endpoint arrive
 * while it runs, then the final figures, which are the API's, the endpoints table (the http step's name with all the
 * run's requests, sortable) and the verdict of the test's thresholds.
 */
import { api, expect, expectNoSeriousA11yViolations, healthScript, screenshot, test, unique } from './fixtures.ts';

test('start a test from its page, see live log lines and the charts, then the final figures', async ({ app: page }) => {
  // Thresholds the health check passes: checked on the merged figures and on the `health` step's own.
  const created = await api.post<{ id: string; name: string }>('/tests', {
    name: unique('live run'),
    tool: 'http',
    script: healthScript(),
    thresholds: [
      { metric: 'error_rate', op: '<', value: 0.5 },
      { metric: 'p95', endpoint: 'health', op: '<', value: 10_000 },
    ],
  });
  const config = await api.createConfig(unique('5 users, 12 s'), 5, '12s');

  await page.goto(`/tests/${created.id}`);
  await expect(page.getByRole('heading', { level: 1, name: created.name })).toBeVisible();
  const panel = page.getByRole('region', { name: 'Start a run' });
  await panel.getByLabel('Load configuration').selectOption({ label: `${config.name}: 5 VUs for 12s` });
  await panel.getByRole('button', { name: 'Start a run' }).click();

  await expect(page).toHaveURL(/\/runs\/[^/?]+$/);
  const runId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const task = await api.task(runId);
  expect(task.test_id).toBe(created.id);
  await expect(page.getByRole('heading', { level: 1, name: `Run ${task.public_id}` })).toBeVisible();

  // Live: the engine's progress lines (`[http] 2.0s  VUs 5  requests ...`) while the run is still running.
  const log = page.getByRole('log');
  await expect(log).toContainText(/\[http\] \d+\.\ds\s+VUs 5\b/);
  await expect(page.getByRole('region', { name: 'Summary' }).getByText('running', { exact: true })).toBeVisible();
  expect((await api.task(runId)).status).toBe('running');

  // The charts, with points, while it runs (a "Virtual users" chart appears only when the time series has VUs).
  for (const title of ['Requests per second', 'Latency', 'Error rate']) {
    const chart = page.getByRole('figure', { name: new RegExp(`^${title}`) });
    await expect(chart).toBeVisible();
    await expect(chart.locator('canvas').first()).toBeVisible();
  }
  await expect(page.getByRole('table', { name: /^Requests per second in req\/s, \d+ points up to/ })).toBeAttached();
  await expect(page.getByRole('heading', { name: 'Figures so far' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel run' })).toBeVisible();
  // The thresholds to be checked, and the endpoints so far (refetched while it runs).
  await expect(page.getByRole('region', { name: 'Thresholds' })).toContainText('p95 latency of health < 10000 ms');
  const endpoints = page.getByRole('region', { name: 'Endpoints' });
  await expect(endpoints.getByRole('table', { name: /^Figures per endpoint so far/ }).getByRole('row', { name: /^health / })).toBeVisible();

  // The end: completed, the final figures (the API's), the cancel button gone.
  await expect(page.getByRole('region', { name: 'Summary' }).getByText('completed', { exact: true })).toBeVisible({ timeout: 90_000 });
  const done = await api.waitForTask(runId, ['completed']);
  expect(done.total_requests).toBeGreaterThan(0);
  const figures = page.getByRole('region', { name: 'Figures' });
  await expect(page.getByRole('heading', { name: 'Figures', exact: true })).toBeVisible();
  await expect(figures.getByRole('definition').filter({ hasText: /^[\d,]+$/ })).toHaveText(done.total_requests.toLocaleString('en'));
  for (const label of ['p50 latency', 'p95 latency', 'p99 latency']) {
    await expect(figures.getByRole('term').filter({ hasText: label })).toBeVisible();
  }
  await expect(figures).toContainText(/p95 latency\s*[\d.,]+ m?s/);
  await expect(figures).toContainText(/Error rate\s*0 %/);
  await expect(page.getByRole('button', { name: 'Cancel run' })).toHaveCount(0);
  await expect(log).toContainText(/\[http\]/);
  await expect(page.getByRole('table', { name: /^Requests per second in req\/s, \d+ points/ })).toBeAttached();

  // The endpoints: the http step's name, with every request of the run.
  const table = endpoints.getByRole('table', { name: /^Figures per endpoint, sorted by/ });
  const health = table.getByRole('row', { name: /^health / });
  await expect(health.getByRole('cell').first()).toHaveText(done.total_requests.toLocaleString('en'));
  // Sortable by any column, with the keyboard too; aria-sort tells the order.
  const requestsHeader = table.getByRole('columnheader', { name: 'Requests', exact: true });
  await expect(requestsHeader).toHaveAttribute('aria-sort', 'descending');
  await requestsHeader.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(requestsHeader).toHaveAttribute('aria-sort', 'ascending');
  const nameHeader = table.getByRole('columnheader', { name: 'Endpoint', exact: true });
  await nameHeader.getByRole('button').click();
  await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect(requestsHeader).toHaveAttribute('aria-sort', 'none');
  await expect(page.getByRole('region', { name: 'Errors' })).toContainText('No errors');

  // The verdict: passed, each threshold held (the API says so too).
  expect(done.verdict).toBe('passed');
  await expect(page.getByText(/^Verdict:/).locator('..')).toContainText('thresholds passed');
  await expect(page.getByText('thresholds passed').first()).toBeVisible();
  const thresholds = page.getByRole('region', { name: 'Thresholds' });
  await expect(thresholds.getByRole('row', { name: /^Error rate / })).toContainText('held');
  await expect(thresholds.getByRole('row', { name: /^p95 latency health / })).toContainText('held');

  await expectNoSeriousA11yViolations(page, 'a finished run');
  await screenshot(page, 'run', { fullPage: true });
});
