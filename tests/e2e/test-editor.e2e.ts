/** The test editor: a new `http` test written in the browser (name, tool, script in the code editor, thresholds) and saved. */
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

  // Thresholds: one on the health step's error rate (typed as a percentage, saved as a fraction), stopping the run.
  const editor2 = page.getByRole('group', { name: 'Thresholds' });
  await editor2.getByRole('button', { name: 'Add threshold' }).click();
  const first = editor2.getByRole('group', { name: 'Threshold 1' });
  await expect(first.getByLabel('Metric')).toBeFocused();
  await first.getByLabel('Metric').selectOption({ label: 'Error rate' });
  await first.getByLabel('Endpoint (optional)').fill('health');
  await first.getByLabel('Condition').selectOption('<');
  await first.getByLabel('Value (%)').fill('1.5');
  await first.getByLabel('Stop the run when it fails').check();
  // A second one with a negative latency: its message shows at that threshold, with focus there, and nothing is saved.
  await editor2.getByRole('button', { name: 'Add threshold' }).click();
  const second = editor2.getByRole('group', { name: 'Threshold 2' });
  await second.getByLabel('Value (ms)').fill('-5');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(second.getByRole('alert')).toContainText('Threshold 2: the value must not be negative.');
  await expect(second.getByLabel('Value (ms)')).toHaveAttribute('aria-invalid', 'true');
  await expect(second.getByLabel('Value (ms)')).toBeFocused();
  expect((await api.get<{ thresholds: unknown[] }>(`/tests/${id}`)).thresholds).toEqual([]);
  await expectNoSeriousA11yViolations(page, 'the thresholds editor with an error');
  await second.getByRole('button', { name: 'Remove threshold 2' }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  const withThresholds = await api.get<{ thresholds: unknown[] }>(`/tests/${id}`);
  expect(withThresholds.thresholds).toEqual([{ metric: 'error_rate', endpoint: 'health', op: '<', value: 0.015, abort: true }]);
  await page.reload();
  const reloaded = page.getByRole('group', { name: 'Threshold 1' });
  await expect(reloaded.getByLabel('Value (%)')).toHaveValue('1.5');
  await expect(reloaded.getByLabel('Endpoint (optional)')).toHaveValue('health');
  await expect(page.getByRole('group', { name: 'Threshold 2' })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tests' }).click();
  await expect(page.getByRole('link', { name: `${name} (edited)` })).toBeVisible();
});
