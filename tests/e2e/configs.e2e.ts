/** Load configurations: one created in the form (constant VUs for a duration) is listed and stored as entered. */
import { api, expect, expectNoSeriousA11yViolations, test, unique } from './fixtures.ts';

test('create a load configuration in its form', async ({ app: page }) => {
  const name = unique('3 users, 10 s');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Load configs' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Load configurations' })).toBeVisible();
  await page.getByRole('button', { name: 'New configuration' }).first().click();

  const form = page.getByRole('form', { name: 'New load configuration' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByRole('radio', { name: /^Constant/ }).check();
  await form.getByLabel('Virtual users', { exact: true }).fill('3');
  await form.getByLabel('Duration', { exact: true }).fill('10s');
  await expectNoSeriousA11yViolations(page, 'the load configuration form');
  await form.getByRole('button', { name: 'Create configuration' }).click();

  await expect(form).toHaveCount(0);
  const table = page.getByRole('table', { name: 'Load configurations, newest first' });
  await expect(table.getByRole('rowheader', { name, exact: true })).toBeVisible();
  const stored = (await api.get<{ name: string; vus: number | null; duration: string | null }[]>('/configs?limit=1000')).filter(
    (config) => config.name === name,
  );
  expect(stored).toEqual([expect.objectContaining({ name, vus: 3, duration: '10s' })]);
});
