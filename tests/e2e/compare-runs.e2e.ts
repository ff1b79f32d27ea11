/** Comparing two finished runs of one test on the run page: the figures side by side with the relative change, then per endpoint. */
import { api, expect, expectNoSeriousA11yViolations, test, unique } from './fixtures.ts';

test('compare two finished runs of the same test', async ({ app: page }) => {
  const created = await api.createHealthTest(unique('compare runs'));
  const config = await api.createConfig(unique('2 users, 3 s'), 2, '3s');
  const first = await api.waitForTask((await api.startRun(created.id, config.id)).id, ['completed']);
  const second = await api.waitForTask((await api.startRun(created.id, config.id)).id, ['completed']);

  await page.goto(`/runs/${second.public_id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Run ${second.public_id}` })).toBeVisible();
  const compare = page.getByRole('region', { name: 'Compare with another run' });
  const other = compare.getByLabel('Other run of this test');
  await expect(other.getByRole('option', { name: new RegExp(`^${first.public_id} · completed`) })).toBeAttached();
  await other.selectOption(first.id);

  const table = compare.getByRole('table', { name: `This run (${second.public_id}) against run ${first.public_id}; changes are relative to run ${first.public_id}` });
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader', { name: `Run ${first.public_id}` })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'This run' })).toBeVisible();
  for (const figure of ['p50 latency', 'p95 latency', 'p99 latency', 'Error rate', 'Requests/s', 'Requests']) {
    const row = table.getByRole('row', { name: new RegExp(`^${figure.replace('/', '\\/')} `) });
    await expect(row).toBeVisible();
    // The change column: a relative change ("+12.0 %", "−3.4 %", "±0.0 %") or a dash when the base is 0.
    await expect(row.getByRole('cell').last()).toHaveText(/^([+−±]\d+\.\d %|–)/);
  }
  const requests = table.getByRole('row', { name: /^Requests / });
  await expect(requests.getByRole('cell').nth(0)).toHaveText(first.total_requests.toLocaleString('en'));
  await expect(requests.getByRole('cell').nth(1)).toHaveText(second.total_requests.toLocaleString('en'));

  // Per endpoint: the http step of both runs, p95 and requests side by side with the changes.
  const perEndpoint = compare.getByRole('table', { name: `Per endpoint: p95 latency and requests of run ${first.public_id} and this run, with the change` });
  const health = perEndpoint.getByRole('row', { name: /^health / });
  await expect(health).toBeVisible();
  const cells = health.getByRole('cell');
  await expect(cells).toHaveCount(6);
  await expect(cells.nth(0)).toHaveText(/^[\d.,]+ m?s$/);
  await expect(cells.nth(1)).toHaveText(/^[\d.,]+ m?s$/);
  await expect(cells.nth(2)).toHaveText(/^([+−±]\d+\.\d %|–)/);
  await expect(cells.nth(3)).toHaveText(first.total_requests.toLocaleString('en'));
  await expect(cells.nth(4)).toHaveText(second.total_requests.toLocaleString('en'));
  await expect(cells.nth(5)).toHaveText(/^([+−±]\d+\.\d %|–)/);

  // The choice is in the URL: a reload (or a shared link) shows the same comparison.
  await expect(page).toHaveURL(new RegExp(`[?&]compare=${first.id}`));
  await page.reload();
  await expect(table).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'a run compared with another');
});
