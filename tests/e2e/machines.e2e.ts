/** The machines page: the built-in local agent's machine, online with the http tool, and the command that adds a machine. */
import { expect, expectNoSeriousA11yViolations, service, test } from './fixtures.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('the machine page lists the local machine and shows the install command with a fresh token', async ({ app: page }) => {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Machines' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Machines' })).toBeVisible();
  const table = page.getByRole('table', { name: /machines?, \d+ online or busy/ });
  await expect(table).toBeVisible();
  const local = table.getByRole('row').filter({ has: page.getByRole('list', { name: /^Tools on / }) }).first();
  await expect(local).toBeVisible();
  await expect(local.getByRole('listitem').filter({ hasText: /^http\b/ })).toBeVisible();
  await expect(local).toContainText(/online|busy/);

  await page.getByRole('button', { name: 'Add a machine' }).first().click();
  const panel = page.getByRole('region', { name: 'Add a machine' });
  await panel.getByLabel('Token name').fill('e2e agent');
  await panel.getByRole('button', { name: 'Create a token and show the command' }).click();
  const commands = panel.getByRole('code').filter({ hasText: 'npm run agent' });
  await expect(commands).toContainText(`LOADPLANE_URL=${service.url} npm run agent -- --token-file agent-token`);
  await expect(commands).toContainText(/\(umask 077 && echo 'psk_[^']+' > agent-token\)/);
  await expectNoSeriousA11yViolations(page, 'the machines page with the install command');

  await panel.getByRole('button', { name: 'Copy the commands' }).click();
  await expect(panel.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain(`LOADPLANE_URL=${service.url} npm run agent -- --token-file agent-token`);
  expect(copied).toMatch(/psk_/);
});
