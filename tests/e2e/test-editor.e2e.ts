/** The test editor: a new `http` test written in the browser (name, tool, script in the code editor) and saved. */
import { api, expect, expectNoSeriousA11yViolations, healthScript, screenshot, test, unique } from './fixtures.ts';

test('create an http test in the editor: it is saved as written and listed', async ({ app: page }) => {
  const name = unique('editor test');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tests' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Tests' })).toBeVisible();
  await page.getByRole('link', { name: /new test|create an http test/i }).first().click();
  await expect(page).toHaveURL(/\/tests\/new(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'New test' })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Tool', { exact: true }).selectOption('http');
  const editor = page.getByRole('textbox', { name: 'Script (http)' });
  await expect(editor).toBeVisible();
  await editor.fill(healthScript());
  await expect(editor).toContainText('/healthz');
  await expectNoSeriousA11yViolations(page, 'the test editor');
  await editor.blur();
  await screenshot(page, 'test-editor');

  await page.getByRole('button', { name: 'Create test' }).click();
  // Saved: the page becomes the test's own, by its id.
  await expect(page).toHaveURL(/\/tests\/(?!new)[^/?]+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const saved = await api.test(id);
  expect(saved.name).toBe(name);
  expect(saved.tool).toBe('http');
  expect(saved.script.trim()).toBe(healthScript().trim());

  // An edit saves too, and a reload shows the saved test.
  await page.getByLabel('Name', { exact: true }).fill(`${name} (edited)`);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `${name} (edited)` })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Script (http)' })).toContainText('/healthz');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tests' }).click();
  await expect(page.getByRole('link', { name: `${name} (edited)` })).toBeVisible();
});
