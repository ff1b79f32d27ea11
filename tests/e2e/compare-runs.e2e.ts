/** Comparing finished runs of one test on the run page (GET /tasks/{id}/compare): another run chosen, then the baseline set through the UI and compared by default. */
import { api, expect, expectNoSeriousA11yViolations, test, unique } from './fixtures.ts';

const change = /^([+−±]\d+\.\d %|–)/;

test('compare two finished runs, then against the baseline set in the UI', async ({ app: page }) => {
  const created = await api.createHealthTest(unique('compare runs'));
  const config = await api.createConfig(unique('2 users, 3 s'), 2, '3s');
  const first = await api.waitForTask((await api.startRun(created.id, config.id)).id, ['completed']);
  const second = await api.waitForTask((await api.startRun(created.id, config.id)).id, ['completed']);

  await page.goto(`/runs/${second.public_id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Run ${second.public_id}` })).toBeVisible();
  const compare = page.getByRole('region', { name: 'Compare with another run' });
  const other = compare.getByLabel('Other run of this test');
  await expect(other.getByRole('option', { name: new RegExp(`^${first.public_id} · completed`) })).toBeAttached();
  // No baseline yet: nothing is compared until a run is chosen.
  await expect(other.getByRole('option', { name: /^Baseline/ })).toHaveCount(0);
  await other.selectOption(first.id);

  const table = compare.getByRole('table', { name: `This run (${second.public_id}) against run ${first.public_id}; changes are relative to run ${first.public_id}` });
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader', { name: `Run ${first.public_id}` })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'This run' })).toBeVisible();
  for (const figure of ['p50 latency', 'p95 latency', 'p99 latency', 'Error rate', 'Requests/s', 'Requests']) {
    const row = table.getByRole('row', { name: new RegExp(`^${figure.replace('/', '\\/')} `) });
    await expect(row).toBeVisible();
    // The change column: a relative change ("+12.0 %", "−3.4 %", "±0.0 %") with the absolute one, or a dash when the base is 0.
    await expect(row.getByRole('cell').last()).toHaveText(change);
  }
  const requests = table.getByRole('row', { name: /^Requests / });
  await expect(requests.getByRole('cell').nth(0)).toHaveText(first.total_requests.toLocaleString('en'));
  await expect(requests.getByRole('cell').nth(1)).toHaveText(second.total_requests.toLocaleString('en'));
  await expect(requests.getByRole('cell').nth(2)).toContainText(/\([+−±][\d,]+\)/);

  // Per endpoint: the http step of both runs, p95 and requests/s side by side with the changes.
  const perEndpoint = compare.getByRole('table', { name: `Per endpoint: p95 latency and requests/s of run ${first.public_id} and this run, with the change` });
  const health = perEndpoint.getByRole('row', { name: /^health / });
  await expect(health).toBeVisible();
  const cells = health.getByRole('cell');
  await expect(cells).toHaveCount(6);
  await expect(cells.nth(0)).toHaveText(/^[\d.,]+ m?s$/);
  await expect(cells.nth(1)).toHaveText(/^[\d.,]+ m?s$/);
  await expect(cells.nth(2)).toHaveText(change);
  await expect(cells.nth(3)).toHaveText(/^[\d.,]+\/s$/);
  await expect(cells.nth(4)).toHaveText(/^[\d.,]+\/s$/);
  await expect(cells.nth(5)).toHaveText(change);
  // The chart of the top endpoints, p95 first, requests on choice.
  const bars = compare.getByRole('figure', { name: /^Top 1 endpoints by p95 latency/ });
  await expect(bars.getByText('health', { exact: true })).toBeVisible();
  await compare.getByRole('radio', { name: 'Requests' }).check();
  await expect(compare.getByRole('figure', { name: /^Top 1 endpoints by requests/ })).toBeVisible();

  // The choice is in the URL: a reload (or a shared link) shows the same comparison.
  await expect(page).toHaveURL(new RegExp(`[?&]compare=${first.id}`));
  await page.reload();
  await expect(table).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'a run compared with another');

  // The first run becomes the test's baseline from its page.
  await page.goto(`/runs/${first.public_id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Run ${first.public_id}` })).toBeVisible();
  await page.getByRole('button', { name: 'Set as baseline' }).click();
  await expect(page.getByText('Baseline', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set as baseline' })).toHaveCount(0);
  await expect.poll(async () => (await api.get<{ baseline_task_id: string | null }>(`/tests/${created.id}`)).baseline_task_id).toBe(first.id);

  // The second run is compared with the baseline without choosing it.
  await page.goto(`/runs/${second.public_id}`);
  await expect(page.getByRole('button', { name: 'Set as baseline' })).toBeVisible();
  await expect(compare.getByLabel('Other run of this test')).toHaveValue('baseline');
  const againstBaseline = compare.getByRole('table', {
    name: `This run (${second.public_id}) against the baseline (run ${first.public_id}); changes are relative to the baseline (run ${first.public_id})`,
  });
  await expect(againstBaseline).toBeVisible();
  await expect(againstBaseline.getByRole('columnheader', { name: `Baseline ${first.public_id}` })).toBeVisible();
  const baselineP95 = againstBaseline.getByRole('row', { name: /^p95 latency / });
  await expect(baselineP95.getByRole('cell').last()).toHaveText(change);
  const baselineEndpoints = compare.getByRole('table', {
    name: `Per endpoint: p95 latency and requests/s of the baseline (run ${first.public_id}) and this run, with the change`,
  });
  await expect(baselineEndpoints.getByRole('columnheader', { name: `Baseline ${first.public_id}` }).first()).toBeVisible();
  await expect(baselineEndpoints.getByRole('row', { name: /^health / }).getByRole('cell')).toHaveCount(6);
  await expectNoSeriousA11yViolations(page, 'a run compared with its baseline');
});
