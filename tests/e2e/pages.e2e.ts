/**
 * Every page of the UI, reached by its real URL: it loads (its heading, nothing left loading), with no console error
 * (the fixture fails the test on one) and no serious or critical axe violation, in the light and the dark theme, and at
 * a tablet's width without sideways scrolling; the main ones are photographed into docs/screenshots/ (light theme, and
 * the runs list once in the dark theme).
 */
import { type Page } from '@playwright/test';
import { api, expect, expectNoSeriousA11yViolations, screenshot, test, unique } from './fixtures.ts';

/** A test and a finished run of it, for the pages that show one (and so that the lists are not empty). */
let testId = '';
let testName = '';
let taskId = '';
let taskPublicId = '';

test.beforeAll(async () => {
  testName = unique('health check');
  const created = await api.createHealthTest(testName);
  testId = created.id;
  const config = await api.createConfig(unique('1 user, 3 s'), 1, '3s');
  taskId = (await api.startRun(testId, config.id)).id;
  taskPublicId = (await api.waitForTask(taskId, ['completed'])).public_id;
});

/** The page has loaded: its h1 is there and no loading indicator is left. */
async function expectLoaded(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /loading/i })).toHaveCount(0);
}

const pages: { name: string; path: () => string; heading: () => string | RegExp; shot?: string }[] = [
  { name: 'runs list', path: () => '/runs', heading: () => 'Runs', shot: 'runs' },
  { name: 'run page', path: () => `/runs/${taskId}`, heading: () => `Run ${taskPublicId}` },
  { name: 'tests list', path: () => '/tests', heading: () => 'Tests' },
  { name: 'new test', path: () => '/tests/new', heading: () => /new test/i },
  { name: 'test page', path: () => `/tests/${testId}`, heading: () => testName },
  { name: 'machines', path: () => '/machines', heading: () => 'Machines', shot: 'machines' },
  { name: 'load configs', path: () => '/configs', heading: () => 'Load configurations', shot: 'configs' },
];

for (const entry of pages) {
  test(`${entry.name} loads by its URL with no console error and no serious axe violation`, async ({ app: page }) => {
    await page.goto(entry.path());
    await expectLoaded(page, entry.heading());
    await expectNoSeriousA11yViolations(page, entry.name);
    // A reload keeps the page (real URLs) and the session.
    await page.reload();
    await expectLoaded(page, entry.heading());
    if (entry.shot) await screenshot(page, entry.shot);
    // The dark theme the system asks for: still no serious violation (contrast included).
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectNoSeriousA11yViolations(page, `${entry.name}, dark theme`);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test(`${entry.name} is usable at a tablet's width: its heading, the navigation behind the menu button, nothing wider than the screen`, async ({ app: page }) => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto(entry.path());
    await expectLoaded(page, entry.heading());
    // The sidebar folds behind the menu button there; the button brings it back.
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Machines' })).toBeVisible();
    await menu.click();
    // No sideways scrolling of the page itself (a wide table may scroll inside its own box).
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      // The outermost elements that reach past the right edge, named for the failure message.
      const past = Array.from(document.querySelectorAll<HTMLElement>('body *')).filter((element) => element.getBoundingClientRect().right > width + 1);
      const outermost = past.filter((element) => !past.includes(element.parentElement as HTMLElement));
      return { by: document.documentElement.scrollWidth - width, elements: outermost.slice(0, 5).map((element) => `${element.tagName.toLowerCase()}.${element.className}`) };
    });
    expect(overflow.by, `wider than the screen: ${overflow.elements.join(', ')}`).toBeLessThanOrEqual(0);
    await expectNoSeriousA11yViolations(page, `${entry.name}, tablet width`);
  });
}

test('the dark theme: the runs list after the theme toggle, with no serious axe violation', async ({ app: page }) => {
  await page.goto('/runs');
  await expectLoaded(page, 'Runs');
  const toggle = page.getByRole('button', { name: 'Dark theme' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectNoSeriousA11yViolations(page, 'the runs list, dark theme');
  await screenshot(page, 'runs-dark');
  // Remembered across a reload.
  await page.reload();
  await expectLoaded(page, 'Runs');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});

test('an unknown URL shows the not-found page inside the layout', async ({ app: page }) => {
  await page.goto('/runs/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the not-found page');
});
