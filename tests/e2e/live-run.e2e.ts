/**
 * A run started from its test's page and followed live: log lines and chart points arrive while it runs, then the
 * final figures, which are the API's.
 */
import { api, expect, expectNoSeriousA11yViolations, screenshot, test, unique } from './fixtures.ts';

test('start a test from its page, see live log lines and the charts, then the final figures', async ({ app: page }) => {
  const created = await api.createHealthTest(unique('live run'));
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

  await expectNoSeriousA11yViolations(page, 'a finished run');
  await screenshot(page, 'run', { fullPage: true });
});
