/** Schedules on the test page: create one in the UI (cron read aloud, the browser's time zone), see it listed with its next run, disable it, delete it. */
import { api, expect, expectNoSeriousA11yViolations, test, unique } from './fixtures.ts';

interface ScheduleRecord {
  id: string;
  test_id: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  next_run_at: string | null;
}

const schedulesOf = async (testId: string) => (await api.get<ScheduleRecord[]>('/schedules?limit=1000')).filter((s) => s.test_id === testId);

test('create, disable and delete a schedule of a test', async ({ app: page }) => {
  const created = await api.createHealthTest(unique('scheduled test'));
  await page.goto(`/tests/${created.id}`);
  await expect(page.getByRole('heading', { level: 1, name: created.name })).toBeVisible();

  const section = page.getByRole('region', { name: 'Schedules' });
  await expect(section.getByText('This test has no schedule')).toBeVisible();
  const form = section.getByRole('form', { name: 'New schedule' });
  const cron = form.getByLabel('Cron expression');
  // An expression of four fields: the problem at the field, focus there, nothing sent.
  await cron.fill('0 2 * *');
  await form.getByRole('button', { name: 'Create schedule' }).click();
  await expect(cron).toHaveAttribute('aria-invalid', 'true');
  await expect(cron).toHaveAccessibleDescription(/has 4/);
  await expect(cron).toBeFocused();
  expect(await schedulesOf(created.id)).toEqual([]);

  await cron.fill('0 2 * * *');
  await expect(form.getByText(/Runs every day at 02:00/)).toBeVisible();
  const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  await expect(form.getByLabel('Time zone')).toHaveValue(browserZone);
  await form.getByRole('button', { name: 'Create schedule' }).click();

  const row = section.getByRole('row', { name: /^0 2 \* \* \*/ });
  await expect(row).toBeVisible();
  const [stored] = await schedulesOf(created.id);
  expect(stored).toMatchObject({ cron: '0 2 * * *', enabled: true });
  expect(stored!.next_run_at).not.toBeNull();
  // Its time zone (the browser's, as the service names it) and its next run, a date and time.
  await expect(row.getByRole('cell').nth(0)).toHaveText(stored!.timezone);
  await expect(row.getByRole('cell').nth(1).locator('time')).toHaveAttribute('datetime', stored!.next_run_at!);
  await expect(row.getByRole('cell').nth(3)).toHaveText('enabled');
  await expectNoSeriousA11yViolations(page, 'the test page with a schedule');

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByRole('cell').nth(3)).toHaveText('disabled');
  await expect(row.getByRole('button', { name: 'Enable' })).toBeVisible();
  await expect.poll(async () => (await schedulesOf(created.id))[0]?.enabled).toBe(false);

  await row.getByRole('button', { name: 'Delete' }).click();
  await section.getByRole('button', { name: 'Yes, delete the schedule' }).click();
  await expect(section.getByText('This test has no schedule')).toBeVisible();
  await expect.poll(async () => (await schedulesOf(created.id)).length).toBe(0);
});
