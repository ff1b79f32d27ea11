/** Schedules on the test page: create one in the UI (cron read aloud, the browser's time zone), see it listed with its next run, edit its cron, disable it, delete it. */
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

test('create, edit, disable and delete a schedule of a test', async ({ app: page }) => {
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

  const created2am = section.getByRole('row', { name: /^0 2 \* \* \*/ });
  await expect(created2am).toBeVisible();
  const [stored] = await schedulesOf(created.id);
  expect(stored).toMatchObject({ cron: '0 2 * * *', enabled: true });
  expect(stored!.next_run_at).not.toBeNull();
  // Its time zone (the browser's, as the service names it) and its next run, a date and time.
  await expect(created2am.getByRole('cell').nth(0)).toHaveText(stored!.timezone);
  await expect(created2am.getByRole('cell').nth(1).locator('time')).toHaveAttribute('datetime', stored!.next_run_at!);
  await expect(created2am.getByRole('cell').nth(3)).toHaveText('enabled');
  await expectNoSeriousA11yViolations(page, 'the test page with a schedule');

  // Edit: the same form, filled in with the schedule's values, in the new one's place; the cron changed and saved.
  await created2am.getByRole('button', { name: 'Edit' }).click();
  const edit = section.getByRole('form', { name: 'Edit schedule' });
  await expect(section.getByRole('form', { name: 'New schedule' })).toHaveCount(0);
  const editCron = edit.getByLabel('Cron expression');
  await expect(editCron).toBeFocused();
  await expect(editCron).toHaveValue('0 2 * * *');
  await expect(edit.getByLabel('Time zone')).toHaveValue(stored!.timezone);
  await expect(edit.getByLabel('Enabled')).toBeChecked();
  await editCron.fill('30 4 * * mon-fri');
  await expect(edit.getByText(/Runs every weekday \(Monday to Friday\) at 04:30/)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the test page editing a schedule');
  await edit.getByRole('button', { name: 'Save schedule' }).click();

  const row = section.getByRole('row', { name: /^30 4 \* \* mon-fri/ });
  await expect(row).toContainText('every weekday (Monday to Friday) at 04:30');
  await expect(created2am).toHaveCount(0);
  await expect(section.getByRole('form', { name: 'Edit schedule' })).toHaveCount(0);
  await expect(section.getByRole('form', { name: 'New schedule' })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Edit' })).toBeFocused();
  const [edited] = await schedulesOf(created.id);
  expect(edited).toMatchObject({ id: stored!.id, cron: '30 4 * * mon-fri', timezone: stored!.timezone, enabled: true });
  await expect(row.getByRole('cell').nth(1).locator('time')).toHaveAttribute('datetime', edited!.next_run_at!);

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByRole('cell').nth(3)).toHaveText('disabled');
  await expect(row.getByRole('button', { name: 'Enable' })).toBeVisible();
  await expect.poll(async () => (await schedulesOf(created.id))[0]?.enabled).toBe(false);

  await row.getByRole('button', { name: 'Delete' }).click();
  await section.getByRole('button', { name: 'Yes, delete the schedule' }).click();
  await expect(section.getByText('This test has no schedule')).toBeVisible();
  await expect.poll(async () => (await schedulesOf(created.id)).length).toBe(0);
});
