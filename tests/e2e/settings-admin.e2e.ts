/**
 * The settings pages and the audit log, driven as an owner would: an API token created, copied, checked against the
 * API and revoked; a webhook to a receiver this spec starts on 127.0.0.1 (global-setup.ts allows it with
 * WEBHOOK_ALLOW_HOSTS), its signing secret, a test.ping delivered and seen in the history; a user created through the
 * embedded IdP's admin API, invited, accepted and re-roled, the last-owner refusal; a permission taken from a role in
 * Access controls and the member losing that action; the audit log filtered; axe on every page, light and dark.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { api, expect, expectNoSeriousA11yViolations, service, test, unique } from './fixtures.ts';
import { createSignedInUser } from './idp-users.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

/** A name that is also a valid username (no spaces). */
const handle = (prefix: string) => unique(prefix).replace(/\s+/g, '-').toLowerCase();

/** Chromium logs every 4xx answer as a console error; drop those of the refusals a test provokes on purpose. */
function forgiveRefusals(consoleErrors: string[], status: number): void {
  const kept = consoleErrors.filter((line) => !line.includes(`status of ${status}`));
  consoleErrors.splice(0, consoleErrors.length, ...kept);
}

/** A call of the API as someone else (their token), optionally in a given workspace. */
async function callAs(token: string, method: string, path: string, options: { workspaceId?: string; body?: unknown } = {}): Promise<Response> {
  return fetch(`${service.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.workspaceId ? { 'x-workspace-id': options.workspaceId } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

async function openFromSidebar(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1: answers 200 with a short text and keeps every request. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('received by the e2e receiver');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hook`, received };
}

test('API tokens: create with scopes, copy the plaintext shown once, use it, revoke it', async ({ app: page }) => {
  await openFromSidebar(page, 'API tokens', 'API tokens');
  await expect(page).toHaveTitle(/API tokens · Loadplane/);
  await expect(page.getByText(/\d+ of 5 tokens used/)).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the API tokens page');

  const name = unique('e2e read token');
  await page.getByRole('button', { name: 'New token' }).first().click();
  const form = page.getByRole('form', { name: 'New API token' });
  await form.getByLabel('Name').fill(name);
  await form.getByRole('checkbox', { name: /^tests:read/ }).check();
  await form.getByRole('checkbox', { name: /^runs:read/ }).check();
  await form.getByLabel('Expires').selectOption('30');
  await expectNoSeriousA11yViolations(page, 'the new-token form');
  await form.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByRole('region', { name: `Token ${name} created` });
  await expect(shown).toBeVisible();
  await expect(shown).toContainText('you will not see it again');
  const plaintext = (await shown.locator('code').textContent())?.trim() ?? '';
  expect(plaintext).toMatch(/^psk_/);
  await shown.getByRole('button', { name: 'Copy the token' }).click();
  await expect(shown.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(plaintext);
  await expectNoSeriousA11yViolations(page, 'the token shown once');

  // The token works within its scopes, and not outside them.
  expect((await callAs(plaintext, 'GET', '/tests')).status).toBe(200);
  expect((await callAs(plaintext, 'GET', '/machines')).status).toBe(403);

  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('tests:read, runs:read');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Revoked ${name}` })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);
  expect((await callAs(plaintext, 'GET', '/tests')).status).toBe(401);
});

test('webhooks: create with the secret shown once, send a test, see the delivery and its attempt', async ({ app: page }) => {
  const receiver = await startReceiver();
  try {
    await openFromSidebar(page, 'Webhooks', 'Webhooks');
    await expect(page).toHaveTitle(/Webhooks · Loadplane/);
    await expectNoSeriousA11yViolations(page, 'the webhooks page');

    await page.getByRole('button', { name: 'New webhook' }).first().click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Payload URL').fill(receiver.url);
    await form.getByRole('checkbox', { name: /^test\.started/ }).check();
    await form.getByLabel('Description (optional)').fill('e2e receiver');
    await form.getByRole('button', { name: 'Create webhook' }).click();

    const shown = page.getByRole('region', { name: `Webhook to ${receiver.url} created` });
    await expect(shown).toContainText('you will not see it again');
    const secret = (await shown.locator('code').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_/);
    await expectNoSeriousA11yViolations(page, 'the webhook secret shown once');
    await shown.getByRole('button', { name: 'I have copied it' }).click();

    const row = page.getByRole('row').filter({ hasText: receiver.url });
    await expect(row.getByRole('list', { name: `Events of ${receiver.url}` }).getByRole('listitem')).toHaveText([
      'test.started',
      'test.completed',
      'test.failed',
    ]);
    await row.getByRole('button', { name: `Send test to ${receiver.url}` }).click();

    const history = page.getByRole('region', { name: `Deliveries to ${receiver.url}` });
    const delivery = history.getByRole('row').filter({ hasText: 'test.ping' }).first();
    await expect(delivery).toContainText('delivered', { timeout: 45_000 });
    await expect(delivery.getByRole('list', { name: /^Attempts of delivery/ }).getByRole('listitem')).toHaveCount(1);
    await expect(delivery).toContainText(/HTTP 200 in \d+ ms/);
    await delivery.getByText('Response', { exact: true }).click();
    await expect(delivery).toContainText('received by the e2e receiver');

    // What arrived is a signed test.ping, verifiable with the secret the page showed once.
    const ping = receiver.received.find((request) => request.headers['x-service-event'] === 'test.ping');
    expect(ping).toBeDefined();
    const signature = String(ping!.headers['x-service-signature']);
    const parts = Object.fromEntries(signature.split(',').map((part) => part.split('=', 2) as [string, string]));
    const expected = createHmac('sha256', secret).update(`${parts.t}.${ping!.body}`).digest();
    expect(timingSafeEqual(Buffer.from(parts.v1 ?? '', 'hex'), expected)).toBe(true);
    await expectNoSeriousA11yViolations(page, 'the delivery history');

    // A new signing secret, shown once.
    await row.getByRole('button', { name: 'Rotate secret' }).click();
    await row.getByRole('button', { name: 'Rotate the secret' }).click();
    const rotated = page.getByRole('region', { name: `New signing secret of ${receiver.url}` });
    await expect(rotated).toContainText('you will not see it again');
    const newSecret = (await rotated.locator('code').textContent())?.trim() ?? '';
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    await rotated.getByRole('button', { name: 'I have copied it' }).click();

    // Redeliver, disable, delete.
    await delivery.getByRole('button', { name: /^Redeliver test\.ping/ }).click();
    await expect(history.getByRole('row').filter({ hasText: '(sent again)' })).toContainText('delivered', { timeout: 45_000 });
    await row.getByRole('button', { name: `Disable ${receiver.url}` }).click();
    await expect(row).toContainText('disabled');
    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await row.getByRole('button', { name: 'Delete webhook' }).click();
    await expect(page.getByRole('row').filter({ hasText: receiver.url })).toHaveCount(0);
  } finally {
    receiver.server.close();
  }
});

test('members and access controls: invite, accept, change the role, take a permission away', async ({ app: page, consoleErrors }) => {
  const workspace = await api.get<{ id: string }>('/workspace');
  const saved = await api.get<{ roles: Record<string, string[]> }>('/access-controls');
  const username = handle('e2e-member');
  const memberToken = await createSignedInUser(username, `pw-${crypto.randomUUID()}`);
  try {
    await openFromSidebar(page, 'Members', 'Members');
    await expect(page).toHaveTitle(/Members · Loadplane/);
    await expectNoSeriousA11yViolations(page, 'the members page');

    // An unknown handle gets the API's one answer, shown as it says it.
    const invite = page.getByRole('form', { name: 'Invite a member' });
    await invite.getByLabel('Username or e-mail').fill('nobody-by-this-name');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByRole('alert')).toContainText('must have signed in once');
    forgiveRefusals(consoleErrors, 404);

    await invite.getByLabel('Username or e-mail').fill(username);
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Invited ${username} as viewer` })).toBeVisible();
    const invitations = page.getByRole('region', { name: 'Invitations' });
    await expect(invitations.getByRole('row').filter({ hasText: username })).toContainText('pending');
    await expectNoSeriousA11yViolations(page, 'the members page with an invitation');

    // The invitee accepts (through the API, as their UI would).
    const received = (await (await callAs(memberToken, 'GET', '/auth/me/invitations')).json()) as { id: string; workspace: { id: string } }[];
    const mine = received.find((invitation) => invitation.workspace.id === workspace.id);
    expect(mine).toBeDefined();
    expect((await callAs(memberToken, 'POST', `/auth/me/invitations/${mine!.id}/accept`)).status).toBe(200);

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    const memberRow = page.getByRole('row').filter({ hasText: username });
    await expect(memberRow.getByRole('combobox')).toHaveValue('viewer');
    await memberRow.getByRole('combobox').selectOption('member');
    await memberRow.getByRole('button', { name: /^Save role of/ }).click();
    await expect(page.getByRole('status').filter({ hasText: 'is now member' })).toBeVisible();
    const asMember = async () =>
      (await (await callAs(memberToken, 'GET', '/workspace', { workspaceId: workspace.id })).json()) as { role: string; permissions: string[] };
    await expect.poll(async () => (await asMember()).role).toBe('member');
    expect((await asMember()).permissions).toContain('manage_machines');

    // The last owner stays: the API refuses and the page says why.
    const me = page.getByRole('row').filter({ hasText: '(you)' });
    await me.getByRole('combobox').selectOption('admin');
    await me.getByRole('button', { name: /^Save role of/ }).click();
    await expect(page.getByRole('alert')).toContainText('last owner');
    forgiveRefusals(consoleErrors, 409);
    forgiveRefusals(consoleErrors, 403);

    // Access controls: members lose manage_machines, and the member can no longer add a machine.
    await openFromSidebar(page, 'Access controls', 'Access controls');
    await expect(page).toHaveTitle(/Access controls · Loadplane/);
    await expectNoSeriousA11yViolations(page, 'the access-controls page');
    await expect(page.getByRole('checkbox', { name: 'manage_billing for owner' })).toBeDisabled();
    const cell = page.getByRole('checkbox', { name: 'manage_machines for member' });
    await expect(cell).toBeChecked();
    await cell.uncheck();
    await expect(page.getByText('Unsaved: member: manage_machines removed.')).toBeVisible();
    await page.getByRole('button', { name: 'Save access controls' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await expect(cell).not.toBeChecked();
    await expect.poll(async () => (await asMember()).permissions).not.toContain('manage_machines');
    const refused = await callAs(memberToken, 'POST', '/machines', {
      workspaceId: workspace.id,
      body: { name: `${username}-box`, hostname: `${username}-box`, ip_address: '10.0.0.9' },
    });
    expect(refused.status).toBe(403);

    // And the member leaves again.
    await openFromSidebar(page, 'Members', 'Members');
    const leaving = page.getByRole('row').filter({ hasText: username });
    await leaving.getByRole('button', { name: 'Remove' }).click();
    await leaving.getByRole('button', { name: /^Remove / }).click();
    await expect(page.getByRole('row').filter({ hasText: username })).toHaveCount(0);
  } finally {
    await api.call('PUT', '/access-controls', { roles: { admin: saved.roles.admin, member: saved.roles.member, viewer: saved.roles.viewer } });
  }
});

test('workspace settings: plan, usage against limits and notification preferences', async ({ app: page }) => {
  await openFromSidebar(page, 'Workspace settings', 'Workspace');
  await expect(page).toHaveTitle(/Workspace · Loadplane/);
  const usage = page.getByRole('table', { name: /What this workspace uses/ });
  for (const what of ['Machines', 'Tests', 'Your API tokens', 'Waiting (pending) tasks', /AI tool calls this month/]) {
    await expect(usage.getByRole('rowheader', { name: what })).toBeVisible();
  }
  await expect(usage.getByRole('row', { name: /Your API tokens/ })).toContainText(/\d+\s*5/);
  await expect(page.getByLabel('Workspace name')).not.toHaveValue('');

  const failed = page.getByRole('checkbox', { name: 'fails' });
  const before = await failed.isChecked();
  await failed.setChecked(!before);
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved' })).toBeVisible();
  const stored = await api.get<{ email: { on_failed: boolean } }>('/notification-preferences');
  expect(stored.email.on_failed).toBe(!before);
  await expectNoSeriousA11yViolations(page, 'the workspace settings page');
  await api.call('PUT', '/notification-preferences', { email: { ...stored.email, on_failed: before } });
});

test('the audit log lists who did what, filtered by action and actor, and every page passes axe in both themes', async ({ app: page }) => {
  // Something to find: a token created and revoked through the API.
  const name = unique('e2e audited token');
  const token = await api.post<{ id: string }>('/api-tokens', { name });
  await api.call('DELETE', `/api-tokens/${token.id}`);

  await openFromSidebar(page, 'Audit log', 'Audit log');
  await expect(page).toHaveTitle(/Audit log · Loadplane/);
  const table = page.getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: name }).first()).toBeVisible();
  await page.getByLabel('Action', { exact: true }).selectOption('api_token.revoked');
  await expect(page).toHaveURL(/action=api_token\.revoked/);
  const rows = table.getByRole('row').filter({ hasText: name });
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('api_token.revoked');
  await page.getByLabel('Actor', { exact: true }).fill('nobody-did-this');
  await expect(page.getByRole('heading', { name: 'No entry matches these filters' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(2);
  await expectNoSeriousA11yViolations(page, 'the audit log');

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [path, heading] of [
      ['/settings/api-tokens', 'API tokens'],
      ['/settings/webhooks', 'Webhooks'],
      ['/settings/members', 'Members'],
      ['/settings/access-controls', 'Access controls'],
      ['/settings/workspace', 'Workspace'],
      ['/audit-log', 'Audit log'],
    ] as const) {
      await page.evaluate((to) => {
        window.history.pushState(null, '', to);
        window.dispatchEvent(new PopStateEvent('popstate'));
      }, path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      await expectNoSeriousA11yViolations(page, `${path} (${scheme})`);
    }
  }
});
