/** Cancelling a run from its page: asked first, then the run is cancelled (in the API too) and can no longer be cancelled. */
import { api, expect, test, unique } from './fixtures.ts';

/** The run of this spec: cancelled through the API afterwards should the UI have failed to (it would hold the agent 5 min). */
let started: string | null = null;
test.afterEach(async () => {
  if (started && !['completed', 'failed', 'cancelled'].includes((await api.task(started)).status)) {
    await api.call('DELETE', `/tasks/${started}`);
  }
});

test('cancel a running run from its page', async ({ app: page }) => {
  const created = await api.createHealthTest(unique('long run'));
  const config = await api.createConfig(unique('2 users, 5 min'), 2, '5m');
  const { id } = await api.startRun(created.id, config.id);
  started = id;

  await page.goto(`/runs/${id}`);
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByText('running', { exact: true })).toBeVisible();
  await expect(page.getByRole('log')).toContainText(/\[http\] \d+\.\ds\s+VUs 2\b/);

  // The first click only asks; "Keep it running" keeps it.
  await page.getByRole('button', { name: 'Cancel run' }).click();
  await page.getByRole('button', { name: 'Keep it running' }).click();
  await expect(page.getByRole('button', { name: 'Cancel run' })).toBeFocused();
  expect((await api.task(id)).status).toBe('running');

  await page.getByRole('button', { name: 'Cancel run' }).click();
  await page.getByRole('group', { name: /Cancel this run\?/ }).getByRole('button', { name: 'Yes, cancel the run' }).click();
  await expect(summary.getByText('cancelled', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel run' })).toHaveCount(0);
  expect((await api.task(id)).status).toBe('cancelled');

  // The runs list says so too.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Runs' }).click();
  const task = await api.task(id);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: task.public_id, exact: true }) });
  await expect(row).toContainText('cancelled');
});
