/** Sign-in through the real login page: the UI sends a signed-out visitor to the embedded IdP and back to the page asked for. */
import { expect, expectNoSeriousA11yViolations, signIn, test } from './fixtures.ts';

test('a signed-out visitor is sent to the login page, signs in as admin and lands on the page asked for', async ({ page }) => {
  await page.goto('/machines');
  await expect(page).toHaveURL(/\/auth\/realms\/loadplane\/protocol\/openid-connect\/auth\?/);
  await expect(page.getByRole('heading', { name: 'Sign in to loadplane' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the login page');

  await page.getByLabel('Username or email').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password.');
  await expect(page).toHaveURL(/\/auth\//);

  await signIn(page, '/machines');
  await expect(page).toHaveURL(/\/machines$/);
  await expect(page.getByRole('heading', { level: 1, name: /machines/i })).toBeVisible();

  // The session survives a reload (the UI keeps its user in sessionStorage).
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: /machines/i })).toBeVisible();
  await expect(page).toHaveURL(/\/machines$/);
});
