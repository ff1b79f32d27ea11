/**
 * Fills a running Loadplane with one of everything through its HTTP API (the surface every release shares), for the
 * upgrade fixture (scripts/make-upgrade-fixture.ts runs it against the previous release) and the backup round trip: users and a membership, API tokens, machines, tests of several tools, configs,
 * env vars, a webhook with deliveries, a dashboard, access controls, a finished run with figures and logs, a cancelled
 * run and a run left waiting. Returns what verify-installation.ts checks afterwards, credentials included.
 */

export interface InstallationManifest {
  admin: { username: string; password: string };
  member: { username: string; password: string };
  /** Full-scope token of the admin, and one limited to tests:read. */
  api_token: string;
  read_token: string;
  workspace_id: string;
  tests: { id: string; name: string; tool: string }[];
  configs: { id: string; name: string }[];
  machines: { id: string; hostname: string }[];
  env_var_keys: string[];
  env_var_secret: { key: string; value: string };
  webhook: { id: string; url: string };
  dashboard: { id: string; name: string };
  access_controls: Record<string, string[]>;
  finished_run: {
    id: string;
    public_id: string;
    status: string;
    total_requests: number;
    p50: number;
    p95: number;
    p99: number;
    error_rate: number;
    log_lines: string[];
  };
  cancelled_run: { id: string };
  waiting_run: { id: string; machine_hostname: string };
}

export interface Populate {
  url: string;
  clientSecret: string;
  admin: { username: string; password: string };
}

const memberCredentials = { username: 'fixture-member', password: 'fixture-member-password-1' };
const secret = { key: 'FIXTURE_SECRET', value: 'fixture-s3cret-value-42' };

/** The finished run's script: samples the custom tool counts as requests (two of ten failed), its env var masked in the log. */
const customScript = [
  '#!/bin/sh',
  'echo "fixture run: start"',
  ...[12, 15, 18, 20, 22, 25, 30, 40, 80, 150].map((ms, i) => `echo "loadplane:sample ${ms} ${i % 5 === 4 ? 'error' : 'ok'}"`),
  'echo "the secret is $FIXTURE_SECRET"',
  'echo "fixture run: done"',
].join('\n');

const k6Script = "import http from 'k6/http';\n\nexport default function () {\n  http.get('http://127.0.0.1:9/');\n}\n";
const locustScript = 'from locust import HttpUser, task\n\n\nclass Visitor(HttpUser):\n    @task\n    def home(self):\n        self.client.get("/")\n';
const artilleryScript = 'config:\n  target: http://127.0.0.1:9\n  phases:\n    - duration: 5\n      arrivalRate: 1\nscenarios:\n  - flow:\n      - get:\n          url: /\n';

async function call<T>(url: string, token: string | null, method: string, path: string, body?: unknown, expected = [200, 201, 202, 204]): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!expected.includes(response.status)) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

async function passwordGrant(options: Populate, username: string, password: string): Promise<string> {
  const response = await fetch(`${options.url}/auth/realms/loadplane/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'loadplane', client_secret: options.clientSecret, username, password }),
  });
  if (response.status !== 200) throw new Error(`password grant for ${username}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Polls until `check` returns a value (a run's end, a delivery's attempt); the old service offers no push for these. */
async function waitFor<T>(what: string, check: () => Promise<T | null>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(250);
  }
}

/** Every stored log line of a finished run: its stream replayed from the start (?after=0). */
async function logLines(url: string, token: string, taskId: string): Promise<string[]> {
  const response = await fetch(`${url}/api/v1/tasks/${taskId}/log-stream?after=0`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; text?: string })
    .filter((event) => event.type === 'log')
    .map((event) => event.text!);
}

export async function populateInstallation(options: Populate): Promise<InstallationManifest> {
  const { url } = options;
  const jwt = await passwordGrant(options, options.admin.username, options.admin.password);
  const admin = <T>(method: string, path: string, body?: unknown) => call<T>(url, jwt, method, path, body);

  // A second user: created in the embedded IdP, signed in once (which gives them a workspace of their own), invited here.
  await admin('POST', '/auth/admin/realms/loadplane/users', {
    username: memberCredentials.username,
    email: `${memberCredentials.username}@example.test`,
    emailVerified: true,
    firstName: 'Fixture',
    lastName: 'Member',
    enabled: true,
    credentials: [{ type: 'password', value: memberCredentials.password, temporary: false }],
  });
  const memberJwt = await passwordGrant(options, memberCredentials.username, memberCredentials.password);
  await call(url, memberJwt, 'GET', '/api/v1/workspace');
  const invitation = await admin<{ id: string }>('POST', '/api/v1/members', { user: memberCredentials.username, role: 'member' });
  // Accepted (invitations expire, memberships do not: the fixture must stay valid for years).
  await call(url, memberJwt, 'POST', `/api/v1/auth/me/invitations/${invitation.id}/accept`);

  const workspace = await admin<{ id: string }>('GET', '/api/v1/workspace');
  const apiToken = await admin<{ token: string }>('POST', '/api/v1/api-tokens', { name: 'fixture full token' });
  const readToken = await admin<{ token: string }>('POST', '/api/v1/api-tokens', {
    name: 'fixture read token',
    scopes: ['tests:read'],
    // Far enough for every future run of the upgrade test (the service allows five years at most).
    expires_at: new Date(Date.now() + 4 * 365 * 86_400_000).toISOString(),
  });
  const token = apiToken.token;
  const api = <T>(method: string, path: string, body?: unknown) => call<T>(url, token, method, `/api/v1${path}`, body);

  const offline = await api<{ id: string; hostname: string }>('POST', '/machines', { name: 'gen 1', hostname: 'gen-1.fixture.test', ip_address: '10.0.0.5' });
  const machines = (await api<{ id: string; hostname: string }[]>('GET', '/machines')).map((m) => ({ id: m.id, hostname: m.hostname }));

  const configs = [
    await api<{ id: string; name: string }>('POST', '/configs', { name: 'steady 5 users', vus: 5, duration: '30s' }),
    await api<{ id: string; name: string }>('POST', '/configs', { name: 'ramp', stages: [{ duration: '10s', target: 10 }, { duration: '20s', target: 0 }] }),
  ].map((config) => ({ id: config.id, name: config.name }));

  const tests: { id: string; name: string; tool: string }[] = [];
  for (const [name, tool, script] of [
    ['fixture custom samples', 'custom', customScript],
    ['fixture k6 home', 'k6', k6Script],
    ['fixture locust home', 'locust', locustScript],
    ['fixture artillery home', 'artillery', artilleryScript],
  ] as const) {
    const created = await api<{ id: string }>('POST', '/tests', { name, tool, script });
    tests.push({ id: created.id, name, tool });
  }

  await api('PUT', `/env-vars/${secret.key}`, { value: secret.value });
  await api('PUT', '/env-vars/FIXTURE_BASE_URL', { value: 'http://127.0.0.1:9' });
  const webhook = await api<{ id: string; url: string }>('POST', '/webhooks', {
    url: 'http://127.0.0.1:9/fixture-hook',
    events: ['test.started', 'test.completed', 'test.failed'],
    description: 'fixture receiver (nobody listens: deliveries fail and are retried)',
  });
  const dashboard = await api<{ id: string; name: string }>('POST', '/dashboards', {
    name: 'fixture latency',
    panels: [{ title: 'p95 by endpoint', query: 'metric=latency_p95&step=10', chart: 'line' }],
  });
  // Viewers lose one permission: an override row the upgrade must keep.
  const defaults = await api<{ roles: Record<string, string[]> }>('GET', '/access-controls');
  const controls = await api<{ roles: Record<string, string[]> }>('PUT', '/access-controls', { roles: { viewer: defaults.roles.viewer!.slice(1) } });

  // A finished run on the local agent, with figures from its samples and a log.
  const custom = tests[0]!;
  const started = await api<{ id: string }>('POST', '/tasks', { testId: custom.id, configId: configs[0]!.id });
  const finished = await waitFor('the custom run to finish', async () => {
    const task = await api<InstallationManifest['finished_run'] & { status: string }>('GET', `/tasks/${started.id}`);
    return ['completed', 'failed', 'cancelled'].includes(task.status) ? task : null;
  });
  if (finished.status !== 'completed') throw new Error(`the fixture's custom run ended ${finished.status}: ${JSON.stringify(finished)}`);
  // Its webhook deliveries were tried at least once (and failed: nobody listens), so the fixture holds attempts.
  await waitFor('webhook delivery attempts', async () => {
    const deliveries = await api<{ attempts: unknown[] }[]>('GET', `/webhooks/${webhook.id}/deliveries`);
    return deliveries.some((delivery) => delivery.attempts.length > 0) ? true : null;
  });

  // A run that waited for the offline machine and was cancelled; another left waiting for it.
  const cancelled = await api<{ id: string }>('POST', '/tasks', { testId: tests[1]!.id, machineIds: [offline.id] });
  await api('DELETE', `/tasks/${cancelled.id}`);
  await waitFor('the cancel', async () => ((await api<{ status: string }>('GET', `/tasks/${cancelled.id}`)).status === 'cancelled' ? true : null));
  const waiting = await api<{ id: string }>('POST', '/tasks', { testId: tests[2]!.id, machineIds: [offline.id] });

  return {
    admin: options.admin,
    member: memberCredentials,
    api_token: token,
    read_token: readToken.token,
    workspace_id: workspace.id,
    tests,
    configs,
    machines,
    env_var_keys: ['FIXTURE_BASE_URL', secret.key],
    env_var_secret: secret,
    webhook: { id: webhook.id, url: webhook.url },
    dashboard: { id: dashboard.id, name: dashboard.name },
    access_controls: controls.roles,
    finished_run: {
      id: finished.id,
      public_id: finished.public_id,
      status: finished.status,
      total_requests: finished.total_requests,
      p50: finished.p50,
      p95: finished.p95,
      p99: finished.p99,
      error_rate: finished.error_rate,
      log_lines: await logLines(url, token, finished.id),
    },
    cancelled_run: { id: cancelled.id },
    waiting_run: { id: waiting.id, machine_hostname: offline.hostname },
  };
}
