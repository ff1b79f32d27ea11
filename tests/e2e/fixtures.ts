/**
 * The specs' fixtures: the started service as baseURL, a collector that fails a test on any console error or
 * uncaught page error, sign-in through the embedded IdP's real login page, an API client (the admin's access token
 * from the IdP) to prepare data and check what the UI did, axe, and the screenshots of docs/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { service } from './service-info.ts';

export { expect, service };

const repoRoot = resolve(import.meta.dirname, '../..');
const screenshotDir = join(repoRoot, 'docs/screenshots');

// ------------------------------------------------------------------------------------------------
// The API, as the admin

export interface TaskRecord {
  id: string;
  public_id: string;
  status: string;
  test_id: string;
  pending_reason?: string | null;
  total_requests: number;
  [key: string]: unknown;
}

let cachedToken: { value: string; until: number } | null = null;

/** A password-grant access token of the admin (client `loadplane`, as the README's quick start gets one); 5 minutes. */
async function adminToken(): Promise<string> {
  if (cachedToken && cachedToken.until > Date.now()) return cachedToken.value;
  const response = await fetch(`${service.url}/auth/realms/loadplane/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      client_id: 'loadplane',
      client_secret: service.clientSecret,
      username: 'admin',
      password: service.adminPassword,
    }),
  });
  if (response.status !== 200) throw new Error(`password grant failed: ${response.status} ${await response.text()}`);
  const value = ((await response.json()) as { access_token: string }).access_token;
  cachedToken = { value, until: Date.now() + 3 * 60_000 };
  return value;
}

export const api = {
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${service.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await adminToken()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  },
  get: <T = unknown>(path: string) => api.call<T>('GET', path),
  post: <T = unknown>(path: string, body: unknown) => api.call<T>('POST', path, body),

  /** An `http` test (the built-in tool: no engine to install) whose only step is GET the service's own /healthz. */
  async createHealthTest(name: string): Promise<{ id: string; name: string }> {
    return api.post('/tests', { name, tool: 'http', script: healthScript() });
  },
  async createConfig(name: string, vus: number, duration: string): Promise<{ id: string; name: string }> {
    return api.post('/configs', { name, vus, duration });
  },
  async startRun(testId: string, configId?: string): Promise<{ id: string }> {
    return api.post('/tasks', { testId, ...(configId ? { configId } : {}) });
  },
  task: (id: string) => api.get<TaskRecord>(`/tasks/${id}`),
  /** A test by id (the API lists tests; it has no GET of one). */
  async test(id: string): Promise<{ id: string; name: string; tool: string; script: string; status: string }> {
    const tests = await api.get<{ id: string; name: string; tool: string; script: string; status: string }[]>('/tests?limit=1000');
    const found = tests.find((candidate) => candidate.id === id);
    if (!found) throw new Error(`no test ${id} in GET /tests`);
    return found;
  },
  /** Waits (polling the API) until the task's status is one of `statuses`. */
  async waitForTask(id: string, statuses: string[], timeoutMs = 90_000): Promise<TaskRecord> {
    let task = await api.task(id);
    await expect
      .poll(async () => (task = await api.task(id)).status, { timeout: timeoutMs, message: `task ${id} to become ${statuses.join(' or ')}` })
      .toMatch(new RegExp(`^(${statuses.join('|')})$`));
    return task;
  },
};

/** The `http` tool's script: GET /healthz of the service under test, expecting 200. */
export function healthScript(): string {
  return `steps:\n  - name: health\n    method: GET\n    url: ${service.url}/healthz\n    expect: {status: 200}\n`;
}

/**
 * A name for something a spec creates: the plain name on the fresh service global-setup.ts started (so that the
 * screenshots read well), with a random suffix on a reused one (E2E_BASE_URL), where earlier runs left theirs.
 */
export function unique(prefix: string): string {
  if (process.env.E2E_FRESH_SERVICE === '1') return prefix;
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

// ------------------------------------------------------------------------------------------------
// Sign-in through the login page

/** The UI's address after sign-in: not the IdP (/auth/...) and no authorization code left in the URL. */
const backInTheApp = (url: URL) => !url.pathname.startsWith('/auth/') && !url.searchParams.has('code');

/**
 * Opens `path` signed out and signs in as the admin through the embedded IdP's login page (authorization code + PKCE,
 * what the UI does), whether the UI sends the browser there at once or first shows a sign-in button.
 */
export async function signIn(page: Page, path = '/runs'): Promise<void> {
  await page.goto(path);
  const username = page.getByLabel('Username or email');
  const appSignIn = page.getByRole('button', { name: /sign in/i }).or(page.getByRole('link', { name: /sign in/i }));
  await expect(username.or(appSignIn).first()).toBeVisible();
  if (!/\/auth\/realms\//.test(page.url())) {
    await appSignIn.first().click();
    await expect(page).toHaveURL(/\/auth\/realms\/[^/]+\/protocol\/openid-connect\/auth/);
  }
  await username.fill('admin');
  await page.getByLabel('Password', { exact: true }).fill(service.adminPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(backInTheApp);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}

// ------------------------------------------------------------------------------------------------
// Checks every page gets

/** axe on the page as it is: fails on any serious or critical violation, naming rule and elements. */
export async function expectNoSeriousA11yViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}: ${violation.nodes
          .slice(0, 4)
          .map((node) => node.target.join(' '))
          .join(' | ')}`,
    );
  expect(serious, `axe: serious or critical violations on ${label}`).toEqual([]);
}

/** Writes docs/screenshots/<name>.png: the viewport (or the whole page), animations stopped, no caret. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), animations: 'disabled', caret: 'hide', fullPage: options.fullPage ?? false });
}

// ------------------------------------------------------------------------------------------------
// Fixtures

interface Fixtures {
  /** Console errors and uncaught page errors so far; the test fails at its end if there are any. */
  consoleErrors: string[];
  /**
   * The page, signed in as the admin through the login page, on /runs. Once per test: the UI keeps its OIDC user in
   * sessionStorage, which Playwright's storageState does not carry, and a sign-in takes a second or two.
   */
  app: Page;
}

export const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from the destructuring
  baseURL: async ({}, use) => use(service.url),
  consoleErrors: [
    async ({ context }, use, testInfo) => {
      const errors: string[] = [];
      context.on('console', (message) => {
        if (message.type() !== 'error') return;
        const where = message.location();
        errors.push(`console.error from ${where.url ? `${where.url}:${where.lineNumber}` : '?'} on ${message.page()?.url() ?? '?'}: ${message.text()}`);
      });
      context.on('weberror', (error) => errors.push(`uncaught on ${error.page()?.url() ?? '?'}: ${error.error().message}`));
      await use(errors);
      if (errors.length) await testInfo.attach('console errors', { body: errors.join('\n'), contentType: 'text/plain' });
      expect(errors, `console errors or uncaught page errors${errors.length ? ` (first: ${errors[0]!.slice(0, 200)})` : ''}`).toEqual([]);
    },
    { auto: true },
  ],
  app: async ({ page }, use) => {
    await signIn(page);
    await use(page);
  },
});
