/**
 * Workspace data in the admin UI: an environment variable whose value is never shown again, a dashboard panel that
 * charts a finished run, a git repository (served by this spec's own git server over smart HTTP) whose test files
 * become tests, and the remote MCP servers page; axe on every page.
 *
 * The git part needs the service to reach loopback: global-setup.ts starts it with WEBHOOK_ALLOW_HOSTS=127.0.0.1 (a
 * reused service, E2E_BASE_URL, needs the same).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { api, expect, expectNoSeriousA11yViolations, test, unique } from './fixtures.ts';

const run = promisify(execFile);

// ------------------------------------------------------------------------------------------------
// A git server: a bare repository served by git's own CGI (git http-backend) behind node:http, on loopback.

interface GitServer {
  url: string;
  commit: string;
  stop(): Promise<void>;
}

async function startGitServer(files: Record<string, string>): Promise<GitServer> {
  const root = await mkdtemp(join(tmpdir(), 'loadplane-e2e-git-'));
  const work = join(root, 'work');
  const bare = join(root, 'tests.git');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    GIT_AUTHOR_NAME: 'e2e',
    GIT_AUTHOR_EMAIL: 'e2e@example.test',
    GIT_COMMITTER_NAME: 'e2e',
    GIT_COMMITTER_EMAIL: 'e2e@example.test',
  };
  const git = async (args: string[], cwd: string) => (await run('git', args, { cwd, env })).stdout.trim();
  await mkdir(work);
  await git(['init', '--quiet', '--initial-branch', 'main'], work);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(work, path)), { recursive: true });
    await writeFile(join(work, path), content);
  }
  await git(['add', '-A'], work);
  await git(['commit', '--quiet', '-m', 'load tests'], work);
  const commit = await git(['rev-parse', 'HEAD'], work);
  await git(['clone', '--quiet', '--bare', work, bare], root);

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const cgi: ChildProcess = spawn('/usr/lib/git-core/git-http-backend', [], {
        env: {
          ...env,
          GIT_PROJECT_ROOT: root,
          GIT_HTTP_EXPORT_ALL: '1',
          PATH_INFO: url.pathname,
          QUERY_STRING: url.search.slice(1),
          REQUEST_METHOD: request.method ?? 'GET',
          CONTENT_TYPE: request.headers['content-type'] ?? '',
          CONTENT_LENGTH: String(body.length),
          HTTP_CONTENT_ENCODING: String(request.headers['content-encoding'] ?? ''),
          GIT_PROTOCOL: String(request.headers['git-protocol'] ?? ''),
          REMOTE_ADDR: '127.0.0.1',
        },
      });
      const out: Buffer[] = [];
      cgi.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
      // The backend may answer (and exit) before it reads a body it does not need: not an error.
      cgi.stdin!.on('error', () => {});
      cgi.on('error', () => response.writeHead(500).end('git http-backend did not start'));
      cgi.stdin!.end(body);
      cgi.on('close', () => {
        const all = Buffer.concat(out);
        const split = all.indexOf('\r\n\r\n');
        if (split < 0) {
          response.writeHead(500).end('bad CGI answer');
          return;
        }
        let status = 200;
        const headers: Record<string, string> = {};
        for (const line of all.subarray(0, split).toString('latin1').split('\r\n')) {
          const colon = line.indexOf(':');
          if (colon < 0) continue;
          const name = line.slice(0, colon).trim();
          const value = line.slice(colon + 1).trim();
          if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
          else headers[name] = value;
        }
        response.writeHead(status, headers).end(all.subarray(split + 4));
      });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/tests.git`,
    commit,
    async stop() {
      await new Promise<void>((done) => server.close(() => done()));
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** axe in the light theme (the config's), then in the dark one (the UI follows prefers-color-scheme). */
async function expectAccessibleInBothThemes(page: Page, label: string): Promise<void> {
  await expectNoSeriousA11yViolations(page, `${label} (light)`);
  await page.emulateMedia({ colorScheme: 'dark' });
  try {
    await expectNoSeriousA11yViolations(page, `${label} (dark)`);
  } finally {
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

// ------------------------------------------------------------------------------------------------

test('an environment variable: set through the form, its value never shown again', async ({ app: page }) => {
  const key = `E2E_TOKEN_${Date.now().toString(36).toUpperCase()}`;
  const secret = `e2e-secret-${Math.random().toString(36).slice(2)}-value`;

  await page.goto('/settings/env-vars');
  await expect(page.getByRole('heading', { level: 1, name: 'Environment variables' })).toBeVisible();
  await expect(page).toHaveTitle(/^Environment variables · Loadplane$/);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Environment variables' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the environment variables page');

  const form = page.getByRole('form', { name: 'Set a variable' });
  await form.getByLabel('Name', { exact: true }).fill(key);
  const value = form.getByLabel('Value', { exact: true });
  await expect(value).toHaveAttribute('type', 'password');
  await value.fill(secret);
  await page.getByRole('button', { name: 'Save variable' }).click();

  await expect(page.getByRole('status').filter({ hasText: `${key} saved` })).toBeVisible();
  await expect(value).toHaveValue('');
  const table = page.getByRole('table', { name: /^Environment variables, newest first/ });
  const row = table.getByRole('row', { name: new RegExp(`^${key} `) });
  await expect(row).toBeVisible();
  await expect(row.getByRole('cell').nth(1)).toHaveText('admin');
  expect(await page.content()).not.toContain(secret);
  expect(JSON.stringify(await api.get('/env-vars'))).not.toContain(secret);

  await page.reload();
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await expectAccessibleInBothThemes(page, 'the environment variables page with a variable');

  // Replacing asks for a new value: the old one is never filled in.
  await row.getByRole('button', { name: `Replace value of ${key}` }).click();
  await expect(page.getByRole('form', { name: `Replace the value of ${key}` })).toBeVisible();
  await expect(page.getByLabel('Value', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Value', { exact: true })).toHaveValue('');

  // Deleted.
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: `Delete ${key}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `${key} deleted.` })).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('a dashboard panel charts a finished run', async ({ app: page }) => {
  const created = await api.createHealthTest(unique('dashboard health'));
  const config = await api.createConfig(unique('2 users, 4 s'), 2, '4s');
  const task = await api.waitForTask((await api.startRun(created.id, config.id)).id, ['completed']);

  await page.goto('/dashboards');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboards' })).toBeVisible();
  await expect(page).toHaveTitle(/^Dashboards · Loadplane$/);
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
  await expectAccessibleInBothThemes(page, 'the dashboards page');

  const name = unique('Health checks');
  await page.getByRole('button', { name: 'New dashboard' }).first().click();
  await page.getByRole('form', { name: 'New dashboard' }).getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboards\/[^/?]+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page).toHaveTitle(`${name} · Loadplane`);
  await expect(page.getByRole('region', { name: 'No panels yet' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'an empty dashboard');

  await page.getByRole('button', { name: 'Add panel' }).first().click();
  const form = page.getByRole('form', { name: 'New panel' });
  await form.getByLabel('Title').fill('Requests per second');
  await form.getByLabel('Metric').selectOption('request_rate');
  await form.getByLabel('Run', { exact: true }).selectOption(task.id);
  await expectNoSeriousA11yViolations(page, 'the panel form');
  await form.getByRole('button', { name: 'Add panel' }).click();
  await expect(form).toBeHidden();

  const panel = page.getByRole('region', { name: 'Requests per second' });
  await expect(panel).toBeVisible();
  await page.getByLabel('Time range').selectOption('run');
  await page.getByLabel('Run', { exact: true }).selectOption(task.id);
  await expect(page).toHaveURL(new RegExp(`[?&]run=${task.id}`));

  const chart = panel.getByRole('figure', { name: /Requests per second/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas').first()).toBeVisible();
  // The chart's text alternative: points of the run, not "no data yet".
  await expect(chart.locator('caption')).toContainText(/\d+ points up to/);
  await expect(chart.getByRole('row', { name: new RegExp(`^run ${task.public_id} `) })).toBeAttached();

  // The range is in the URL: a reload draws the same chart.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Requests per second' }).getByRole('figure').locator('canvas').first()).toBeVisible();
  await expectAccessibleInBothThemes(page, 'a dashboard with a chart');

  // Eight panels: each drawn as it scrolls into view, its query sent on its own.
  const metrics = ['request_rate', 'requests', 'errors', 'error_ratio', 'latency_p50', 'latency_p95', 'latency_p99', 'latency_max'];
  const big = await api.post<{ id: string }>('/dashboards', {
    name: unique('Eight panels'),
    panels: metrics.map((metric, index) => ({ title: `Panel ${index + 1}: ${metric}`, query: `metric=${metric}&run=${task.id}`, chart: index === 1 ? 'stat' : 'line' })),
  });
  await page.goto(`/dashboards/${big.id}?run=${task.id}`);
  for (const [index, metric] of metrics.entries()) {
    const region = page.getByRole('region', { name: `Panel ${index + 1}: ${metric}` });
    await region.scrollIntoViewIfNeeded();
    if (index === 1) await expect(region.getByRole('definition')).toHaveText(/\d/);
    else await expect(region.getByRole('figure').locator('canvas').first()).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page, 'a dashboard of eight panels');

  // A panel edited (title and chart), another removed.
  const first = page.getByRole('region', { name: 'Panel 1: request_rate' });
  await first.getByRole('button', { name: 'Edit panel Panel 1: request_rate' }).click();
  const edit = page.getByRole('form', { name: 'Edit panel Panel 1: request_rate' });
  await edit.getByLabel('Title').fill('Throughput');
  await edit.getByLabel('Chart').selectOption('table');
  await edit.getByRole('button', { name: 'Save panel' }).click();
  const throughput = page.getByRole('region', { name: 'Throughput' });
  await expect(throughput.getByRole('table', { name: /^Throughput in / }).getByRole('row', { name: new RegExp(`^run ${task.public_id} `) })).toBeVisible();
  const last = page.getByRole('region', { name: 'Panel 8: latency_max' });
  await last.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('button', { name: 'Remove Panel 8: latency_max' }).click();
  await expect(last).toHaveCount(0);
  await expect(page.getByRole('region', { name: /^Panel \d/ })).toHaveCount(6);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Throughput' })).toBeVisible();
  await expect(page.getByRole('region', { name: /^Panel \d/ })).toHaveCount(6);

  // Listed, renamed, deleted.
  await page.getByRole('link', { name: 'Dashboards' }).first().click();
  const row = page.getByRole('row', { name: new RegExp(`^${name} 1 `) });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: `Rename ${name}` }).click();
  await page.getByRole('form', { name: `Rename ${name}` }).getByLabel('Name').fill(`${name} renamed`);
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Renamed to ${name} renamed.` })).toBeVisible();
  const renamed = page.getByRole('row', { name: new RegExp(`^${name} renamed `) });
  await renamed.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('button', { name: `Delete ${name} renamed` }).click();
  await expect(renamed).toHaveCount(0);
});

test('a git repository: its test files become tests, skipped files say why', async ({ app: page }) => {
  const folder = `e2e-${Date.now().toString(36)}`;
  const git = await startGitServer({
    [`${folder}/checkout.js`]: "import http from 'k6/http';\n\nexport default function () {\n  http.get('http://127.0.0.1:9/');\n}\n",
    [`${folder}/empty.js`]: '',
    [`${folder}/README.md`]: '# load tests\n',
  });
  try {
    await page.goto('/git-repos');
    await expect(page.getByRole('heading', { level: 1, name: 'Git repositories' })).toBeVisible();
    await expect(page).toHaveTitle(/^Git repositories · Loadplane$/);
    await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, 'the git repositories page');

    await page.getByRole('button', { name: 'Add repository' }).first().click();
    const form = page.getByRole('form', { name: 'Add a git repository' });
    await form.getByLabel('Repository URL').fill(git.url);
    await form.getByLabel('Directory (optional)').fill(folder);
    await expectNoSeriousA11yViolations(page, 'the add repository form');
    await form.getByRole('button', { name: 'Add repository' }).click();
    const refused = form.getByRole('alert').filter({ hasText: 'WEBHOOK_ALLOW_HOSTS' });
    const added = page.getByRole('status').filter({ hasText: `${git.url} added` });
    await expect(added.or(refused)).toBeVisible();
    if (await refused.isVisible()) {
      throw new Error('the service refuses loopback repositories: tests/e2e/global-setup.ts must start it with WEBHOOK_ALLOW_HOSTS=127.0.0.1');
    }

    const repo = page.getByRole('article', { name: git.url });
    await expect(repo.getByText('synced', { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(repo.getByText(git.commit.slice(0, 7), { exact: true })).toBeVisible();
    const tests = repo.getByRole('table', { name: /^Tests from this repository/ });
    await expect(tests.getByRole('link', { name: `${folder}/checkout.js` })).toBeVisible();
    const skipped = repo.getByRole('table', { name: /^Skipped files/ });
    await expect(skipped.getByRole('row', { name: new RegExp(`${folder}/empty\\.js empty file`) })).toBeVisible();
    await expectAccessibleInBothThemes(page, 'a synced git repository');

    // Sync now: queued, then synced again, nothing new.
    await repo.getByRole('button', { name: 'Sync now' }).click();
    await expect(page.getByRole('status').filter({ hasText: `A sync of ${git.url} is queued.` })).toBeVisible();
    await expect(repo.getByText('synced', { exact: true })).toBeVisible({ timeout: 60_000 });

    // The test is a test of the workspace.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tests' }).click();
    await expect(page.getByRole('link', { name: `${folder}/checkout.js` })).toBeVisible();

    // Deleted: the repository goes, the test it made stays.
    await page.goto('/git-repos');
    await repo.getByRole('button', { name: 'Delete' }).click();
    await repo.getByRole('button', { name: 'Delete repository' }).click();
    await expect(page.getByRole('status').filter({ hasText: `${git.url} disconnected` })).toBeVisible();
    await expect(repo).toHaveCount(0);
    expect((await api.get<{ name: string }[]>('/tests?limit=1000')).some((t) => t.name === `${folder}/checkout.js`)).toBe(true);
  } finally {
    await git.stop();
  }
});

test('the remote MCP servers page', async ({ app: page }) => {
  await page.goto('/settings/mcp-servers');
  await expect(page.getByRole('heading', { level: 1, name: 'MCP servers' })).toBeVisible();
  await expect(page).toHaveTitle(/^MCP servers · Loadplane$/);
  await expect(page.getByRole('status').filter({ hasText: 'Loading' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, 'the MCP servers page');
  await page.getByRole('button', { name: 'Attach server' }).first().click();
  const form = page.getByRole('form', { name: 'Attach an MCP server' });
  await form.getByRole('button', { name: 'Add header' }).click();
  await expect(form.getByLabel('Header 1 value')).toHaveAttribute('type', 'password');
  // Checked before sending: a name that cannot prefix tools.
  await form.getByLabel('Name', { exact: true }).fill('Not__Valid');
  await form.getByLabel('URL').fill('https://mcp.example.com/mcp');
  await form.getByRole('button', { name: 'Attach server' }).click();
  await expect(form.getByLabel('Name', { exact: true })).toBeFocused();
  await expect(form.getByText('A lower-case letter, then up to 31')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'the attach MCP server form');
});
