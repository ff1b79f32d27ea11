/**
 * Silent renew in the browser, against the real identity provider: the UI keeps a signed-in user past an expired
 * access token by the refresh token (at start, and when the API answers 401), without the login page.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

interface StoredUser {
  access_token: string;
  refresh_token?: string;
  expires_at: number;
}

/** The oidc-client-ts user in sessionStorage (its key starts with `oidc.user:`). */
async function storedUser(page: Page): Promise<{ key: string; user: StoredUser }> {
  return page.evaluate(() => {
    const key = Object.keys(window.sessionStorage).find((name) => name.startsWith('oidc.user:'));
    if (!key) throw new Error('no signed-in user in sessionStorage');
    return { key, user: JSON.parse(window.sessionStorage.getItem(key)!) as StoredUser };
  });
}

async function rewriteUser(page: Page, key: string, change: Partial<StoredUser>): Promise<void> {
  await page.evaluate(
    ({ key, change }) => {
      const user = JSON.parse(window.sessionStorage.getItem(key)!) as Record<string, unknown>;
      window.sessionStorage.setItem(key, JSON.stringify({ ...user, ...change }));
    },
    { key, change },
  );
}

test('an expired access token is renewed at start by the refresh token: the page loads signed in', async ({ app: page }) => {
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  const before = await storedUser(page);
  expect(before.user.refresh_token, 'the embedded IdP gives the UI a refresh token').toBeTruthy();
  // As if the tab had slept past the token's life: expired an hour ago.
  await rewriteUser(page, before.key, { expires_at: Math.floor(Date.now() / 1000) - 3600 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  const after = await storedUser(page);
  expect(after.user.access_token).not.toBe(before.user.access_token);
  expect(after.user.expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000));
});

test('an access token the API refuses (401) is renewed and the page gets its data', async ({ app: page, consoleErrors }) => {
  await expect(page.getByRole('heading', { level: 1, name: 'Runs' })).toBeVisible();
  const before = await storedUser(page);
  // A token the service does not accept, though the UI thinks it valid: the next API call answers 401.
  await rewriteUser(page, before.key, { access_token: 'not-a-valid-token', expires_at: Math.floor(Date.now() / 1000) + 3600 });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Machines' })).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Machines' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Machines' })).toBeVisible();
  await expect.poll(async () => (await storedUser(page)).user.access_token).not.toBe('not-a-valid-token');
  // The renewed token works: the list loads (the local agent's machine), with no error shown.
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Chromium logs every 4xx answer as a console error: the refused token's 401s are this test's own doing.
  const kept = consoleErrors.filter((line) => !line.includes('the server responded with a status of 401'));
  consoleErrors.splice(0, consoleErrors.length, ...kept);
});
