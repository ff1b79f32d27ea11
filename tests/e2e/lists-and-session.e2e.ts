/**
 * Lists and the session: signing out ends the session; the runs list's filters (test, status) and its paging; a test's
 * page starting a run on a chosen machine, archiving and deleting; the workspace switcher changing the tests list.
 */
import { api, expect, expectNoSeriousA11yViolations, service, signIn, test, unique } from './fixtures.ts';
import { createSignedInUser } from './idp-users.ts';

/** Runs this spec started: cancelled afterwards if still pending or running (they would hold the local agent). */
const started: string[] = [];
test.afterAll(async () => {
  for (const id of started) {
    const task = await api.task(id);
    if (!['completed', 'failed', 'cancelled'].includes(task.status)) await api.call('DELETE', `/tasks/${id}`).catch(() => undefined);
  }
});

test('signing out ends the session, also after a reload', async ({ app: page }) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  const username = page.getByLabel('Username or email');
  const appSignIn = page.getByRole('button', { name: /sign in/i }).or(page.getByRole('link', { name: /sign in/i }));
  await expect(username.or(appSignIn).first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  await page.reload();
  await expect(username.or(appSignIn).first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

  // Opening the app again does not bring the signed-in app back either.
  await page.goto('/runs');
  await expect(username.or(appSignIn).first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
});

test('runs list: filter by test and by status, and load older runs', async ({ app: page }) => {
  test.setTimeout(240_000);
  const many = await api.createHealthTest(unique('paging many'));
  const few = await api.createHealthTest(unique('paging few'));
  // More than the UI's page (PAGE_SIZE = 50 in ui/src/pages/runs/use-runs.ts).
  for (let i = 0; i < 52; i++) started.push((await api.startRun(many.id)).id);
  const fewIds: string[] = [];
  for (let i = 0; i < 3; i++) fewIds.push((await api.startRun(few.id)).id);
  started.push(...fewIds);
  // Two of the few are cancelled: the status filter picks them out.
  await api.call('DELETE', `/tasks/${fewIds[0]}`);
  await api.call('DELETE', `/tasks/${fewIds[1]}`);
  const fewPublic = await Promise.all(fewIds.map(async (id) => (await api.task(id)).public_id));
  const total = (await api.get<unknown[]>('/tasks?limit=1000')).length;
  expect(total).toBeGreaterThan(50);

  await page.goto('/runs');
  const filters = page.getByRole('search', { name: 'Filter runs' });
  await expect(page.getByRole('table', { name: 'Runs, newest first (50 loaded)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load older runs' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'runs list');

  // Paging: the rest of the runs appear.
  await page.getByRole('button', { name: 'Load older runs' }).click();
  await expect(page.getByRole('table', { name: `Runs, newest first (${total} loaded)` })).toBeVisible();
  await expect(page.getByText('All runs are loaded.')).toBeVisible();

  // By test: only that test's three runs.
  await filters.getByLabel('Test').selectOption({ label: few.name });
  await expect(page).toHaveURL(new RegExp(`[?&]test=${few.id}`));
  const matching = page.getByRole('table', { name: /Runs matching the filters/ });
  await expect(matching).toHaveAccessibleName('Runs matching the filters, newest first (3 loaded)');
  for (const publicId of fewPublic) await expect(matching.getByRole('link', { name: publicId, exact: true })).toBeVisible();

  // And by status: only the two cancelled ones.
  await filters.getByLabel('Status').selectOption('cancelled');
  await expect(page).toHaveURL(/[?&]status=cancelled/);
  await expect(matching).toHaveAccessibleName('Runs matching the filters, newest first (2 loaded)');
  await expect(matching.getByRole('link', { name: fewPublic[0]!, exact: true })).toBeVisible();
  await expect(matching.getByRole('link', { name: fewPublic[1]!, exact: true })).toBeVisible();
  await expect(matching.getByRole('link', { name: fewPublic[2]!, exact: true })).toHaveCount(0);
  const rows = matching.getByRole('row').filter({ has: page.getByRole('link') });
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await expect(row).toContainText('cancelled');
  await expectNoSeriousA11yViolations(page, 'filtered runs list');

  // Clearing the filters brings every run back (the pages already loaded stay loaded).
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/[?&](test|status)=/);
  await expect(page.getByRole('table', { name: /^Runs, newest first \(\d+ loaded\)$/ })).toBeVisible();
  await expect(page.getByRole('table').getByRole('link', { name: fewPublic[2]!, exact: true })).toBeVisible();
});

test("a test's page: start a run on a chosen machine, then archive and delete the test", async ({ app: page }) => {
  const created = await api.createHealthTest(unique('archive me'));
  const machines = await api.get<{ id: string; name: string; status: string; tools?: string[] }[]>('/machines');
  const machine = machines.find((m) => m.status !== 'offline');
  expect(machine, 'a machine that is up (the local agent)').toBeTruthy();

  await page.goto(`/tests/${created.id}`);
  const startPanel = page.getByRole('region', { name: 'Start a run' });
  const machineBox = startPanel.getByRole('group', { name: 'Machines' }).getByRole('checkbox', { name: new RegExp(`^${machine!.name} `) });
  await expect(machineBox).toBeVisible();
  await machineBox.check();
  await expect(machineBox).toBeChecked();
  await expectNoSeriousA11yViolations(page, 'test page with a machine chosen');
  await startPanel.getByRole('button', { name: 'Start a run' }).click();
  await expect(page).toHaveURL(/\/runs\/[^/]+$/);
  const publicId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  const runs = await api.get<{ id: string; public_id: string; machine_ids?: string[] }[]>(`/tasks?test_id=${created.id}`);
  const run = runs.find((r) => r.public_id === publicId || r.id === publicId);
  expect(run, `run ${publicId} in GET /tasks`).toBeTruthy();
  started.push(run!.id);
  expect((await api.task(run!.id)).machine_ids).toEqual([machine!.id]);

  // Archive from the test page: the page says so, and the API has it archived.
  await page.goto(`/tests/${created.id}`);
  await page.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(page.getByText('This test is archived', { exact: false }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unarchive' })).toBeVisible();
  await expect.poll(async () => (await api.test(created.id)).status).toBe('archived');

  // Delete: asked first, then back on the tests list without it.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('group', { name: /^Delete “/ }).getByRole('button', { name: 'Delete the test' }).click();
  await expect(page).toHaveURL(/\/tests$/);
  await expect(page.getByRole('link', { name: created.name, exact: true })).toHaveCount(0);
  await expect.poll(async () => (await api.get<{ id: string }[]>('/tests?limit=1000')).some((t) => t.id === created.id)).toBe(false);
  // No console error: the deleted test's cached queries (its trend) are dropped, not fetched again to a 404.
});

// ------------------------------------------------------------------------------------------------
// Two workspaces (last: afterwards the admin belongs to a second workspace)

async function callAs<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${service.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

test('workspace switcher: the tests list follows the chosen workspace', async ({ page }) => {
  const ours = await api.createHealthTest(unique('home workspace test'));
  const ownWorkspace = await api.get<{ id: string }>('/workspace');
  // Another user, with their own workspace and a test in it, invites the admin, who accepts.
  const username = unique('e2e-owner').replace(/\s+/g, '-').toLowerCase();
  const other = await createSignedInUser(username, `pw-${crypto.randomUUID()}`);
  const otherWorkspace = await callAs<{ id: string }>(other, 'GET', '/workspace');
  expect(otherWorkspace.id).not.toBe(ownWorkspace.id);
  const theirs = await callAs<{ id: string; name: string }>(other, 'POST', '/tests', { name: unique('other workspace test'), tool: 'http', script: 'steps:\n  - name: health\n    method: GET\n    url: http://127.0.0.1:9/\n' });
  await callAs(other, 'POST', '/members', { user: 'admin', role: 'member' });
  const invitations = await api.get<{ id: string; workspace: { id: string } }[]>('/auth/me/invitations');
  const invitation = invitations.find((candidate) => candidate.workspace.id === otherWorkspace.id);
  expect(invitation).toBeDefined();
  await api.post(`/auth/me/invitations/${invitation!.id}/accept`, undefined);

  await signIn(page, '/tests');
  const switcher = page.getByRole('combobox', { name: 'Workspace' });
  await expect(switcher).toBeVisible();
  await expect(switcher.getByRole('option')).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, 'header with the workspace switcher');

  // Start in the admin's own workspace (whichever the UI chose first).
  if ((await switcher.inputValue()) !== ownWorkspace.id) await switcher.selectOption(ownWorkspace.id);
  await expect(switcher).toHaveValue(ownWorkspace.id);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: ours.name, exact: true })).toBeVisible();
  await expect(main.getByRole('link', { name: theirs.name, exact: true })).toHaveCount(0);

  await switcher.selectOption(otherWorkspace.id);
  await expect(switcher).toHaveValue(otherWorkspace.id);
  await expect(main.getByRole('link', { name: theirs.name, exact: true })).toBeVisible();
  await expect(main.getByRole('link', { name: ours.name, exact: true })).toHaveCount(0);

  // And back.
  await switcher.selectOption(ownWorkspace.id);
  await expect(main.getByRole('link', { name: ours.name, exact: true })).toBeVisible();
  await expect(main.getByRole('link', { name: theirs.name, exact: true })).toHaveCount(0);
});
