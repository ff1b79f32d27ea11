/**
 * A run started from its test's page and followed live: log lines, chart points and the figures per endpoint arrive
 * while it runs, then the final figures, which are the API's, the endpoints (the two http steps' names with all the
 * run's requests, sortable, each with a sparkline, and their chart per minute whose legend hides and shows each one)
 * and the verdict of the test's thresholds.
 */
import { api, expect, expectNoSeriousA11yViolations, healthScript, screenshot, service, test, unique } from './fixtures.ts';

/** The health check, then a second named step (the UI's own configuration, served without a token): two endpoints. */
const twoStepScript = () => `${healthScript()}  - name: ui config\n    method: GET\n    url: ${service.url}/ui-config.json\n    expect: {status: 200}\n`;
const count = (text: string) => Number(text.replace(/,/g, ''));

test('start a test from its page, see live log lines and the charts, then the final figures', async ({ app: page }) => {
  // Thresholds the health check passes: checked on the merged figures and on the `health` step's own.
  const created = await api.post<{ id: string; name: string }>('/tests', {
    name: unique('live run'),
    tool: 'http',
    script: twoStepScript(),
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

  // The endpoints: the http steps' names, with every request of the run between them; each row with a sparkline of
  // its requests/s per minute beside the figure (decoration: hidden from assistive technology, the numbers say it).
  const table = endpoints.getByRole('table', { name: /^Figures per endpoint, sorted by/ });
  const health = table.getByRole('row', { name: /^health / });
  const uiConfig = table.getByRole('row', { name: /^ui config / });
  await expect(health.getByRole('cell').first()).toHaveText(/^[\d,]+$/);
  const requestsOf = async (row: typeof health) => count(await row.getByRole('cell').first().innerText());
  expect((await requestsOf(health)) + (await requestsOf(uiConfig))).toBe(done.total_requests);
  for (const row of [health, uiConfig]) {
    const sparkline = row.locator('svg.sparkline');
    await expect(sparkline).toBeVisible();
    await expect(sparkline).toHaveAttribute('aria-hidden', 'true');
    await expect(sparkline.locator('polyline')).toHaveAttribute('points', /^[\d.]+,[\d.]+ /);
  }

  // Their chart per minute: one series each, named in the legend; pressing an entry hides its line, again shows it.
  const chart = endpoints.getByRole('figure', { name: /^Top 2 endpoints by requests: requests per second per minute/ });
  await expect(chart.locator('canvas').first()).toBeVisible();
  const legend = chart.locator('.u-legend .u-series');
  const healthEntry = legend.filter({ hasText: 'health' });
  const uiConfigEntry = legend.filter({ hasText: 'ui config' });
  await expect(healthEntry).toHaveCount(1);
  await expect(uiConfigEntry).toHaveCount(1);
  await uiConfigEntry.locator('th').click();
  await expect(uiConfigEntry).toHaveClass(/\bu-off\b/);
  await expect(healthEntry).not.toHaveClass(/\bu-off\b/);
  await uiConfigEntry.locator('th').click();
  await expect(uiConfigEntry).not.toHaveClass(/\bu-off\b/);
  // What is drawn, on choice; the hidden table tells screen readers each endpoint's figures.
  await endpoints.getByLabel('Chart the top endpoints by').selectOption('p95');
  const p95Chart = endpoints.getByRole('figure', { name: /^Top 2 endpoints by requests: p95 latency per minute/ });
  await expect(p95Chart.locator('.u-legend .u-series').filter({ hasText: 'ui config' })).toHaveCount(1);
  await expect(p95Chart.getByRole('table', { name: /^Top 2 endpoints by requests: p95 latency per minute in ms/ }).getByRole('row', { name: /^health / })).toBeAttached();
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
