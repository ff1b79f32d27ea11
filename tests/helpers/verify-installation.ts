/**
 * Checks, through the HTTP API only, that a service started on a restored or upgraded database holds what
 * populate-installation.ts put in and that all of it still works: the passwords sign in, the API tokens work with their
 * scopes, tests, configs, machines, env vars, webhooks and their deliveries, dashboards, access controls and memberships
 * are there; the finished run's figures and log read as before, pending_reason is null where nothing waits and says why
 * where a run waits; the secrets still decrypt (an env var's value reaches a new run) and new runs start and finish.
 */
import { expect } from 'bun:test';
import { permissions } from '../../core/domain/permissions.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { InstallationManifest } from './populate-installation.ts';
import { waitFor } from './process-probes.ts';
import { passwordGrant } from './service-process.ts';
import { scriptLines } from './script-log.ts';
import { readSse } from './stream-clients.ts';

type Service = { url: string };

interface TaskView {
  id: string;
  public_id: string;
  status: string;
  p50: number;
  p95: number;
  p99: number;
  error_rate: number;
  total_requests: number;
  pending_reason: string | null;
  error: string | null;
  verdict: string | null;
  threshold_results: unknown[];
}

function client(service: Service, token: string) {
  return async <T>(method: string, path: string, body?: unknown, expected = 200): Promise<T> => {
    const response = await fetch(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${path}: ${response.status} (expected ${expected}) ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  };
}

async function logOf(service: Service, token: string, taskId: string): Promise<string[]> {
  const response = await fetch(`${service.url}/api/v1/tasks/${taskId}/log-stream?after=0`, { headers: { authorization: `Bearer ${token}` } });
  const { events } = await readSse(response);
  return events.filter((event) => event.data.type === 'log').map((event) => String(event.data.text));
}

async function finished(api: ReturnType<typeof client>, taskId: string): Promise<TaskView> {
  let task: TaskView | null = null;
  await waitFor(
    async () => {
      task = await api<TaskView>('GET', `/api/v1/tasks/${taskId}`);
      return ['completed', 'failed', 'cancelled'].includes(task.status);
    },
    120_000,
    () => `task ${taskId} to finish: ${JSON.stringify(task)}`,
  );
  return task!;
}

/** `service` runs with a local agent that offers `custom`; `dataDir` is its DATA_DIR (the client secret is read there). */
export async function verifyInstallation(service: Service, dataDir: string, manifest: InstallationManifest): Promise<void> {
  // The passwords sign in; the client secret is the installation's (restored, and written to DATA_DIR at start).
  const clientSecret = (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim();
  const adminJwt = await passwordGrant(service.url, { ...manifest.admin, clientSecret });
  const memberJwt = await passwordGrant(service.url, { ...manifest.member, clientSecret });
  await expect(passwordGrant(service.url, { ...manifest.admin, password: 'not-the-password', clientSecret })).rejects.toThrow('401');

  // The API tokens work, each with its scopes; an unknown one does not.
  const api = client(service, manifest.api_token);
  const reader = client(service, manifest.read_token);
  const workspace = await api<{ id: string }>('GET', '/api/v1/workspace');
  expect(workspace.id).toBe(manifest.workspace_id);
  const tests = await reader<{ id: string; name: string; tool: string }[]>('GET', '/api/v1/tests');
  expect(tests.map(({ id, name, tool }) => ({ id, name, tool })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
    [...manifest.tests].sort((a, b) => a.name.localeCompare(b.name)),
  );
  // Thresholds are newer than the previous release: its tests have none.
  for (const test of tests) expect(test).toMatchObject({ thresholds: [] });
  await reader('POST', '/api/v1/tests', { name: 'refused', tool: 'custom', script: 'echo' }, 403);
  await client(service, 'psk_not_a_token_of_this_service_at_all_000000000000')('GET', '/api/v1/tests', undefined, 401);

  // Everything else the installation held.
  const configs = await api<{ id: string; name: string }[]>('GET', '/api/v1/configs');
  expect(configs.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
    [...manifest.configs].sort((a, b) => a.name.localeCompare(b.name)),
  );
  const machines = await api<{ id: string; hostname: string }[]>('GET', '/api/v1/machines');
  for (const machine of manifest.machines) expect(machines).toContainEqual(expect.objectContaining(machine));
  // Columns newer than the previous release: no region and no calibration yet; this month's usage starts at nothing.
  for (const machine of machines) expect(machine).toMatchObject({ region: null, benchmark_capacity: null });
  expect(await api('GET', '/api/v1/usage')).toMatchObject({ ai_tool_calls: { used: 0 }, machines: { used: machines.length } });
  const envVars = await api<{ key: string }[]>('GET', '/api/v1/env-vars');
  expect(envVars.map((v) => v.key).sort()).toEqual([...manifest.env_var_keys].sort());
  expect(await api('GET', `/api/v1/webhooks/${manifest.webhook.id}`)).toMatchObject({ url: manifest.webhook.url });
  const deliveries = await api<{ attempts: unknown[] }[]>('GET', `/api/v1/webhooks/${manifest.webhook.id}/deliveries`);
  expect(deliveries.some((delivery) => delivery.attempts.length > 0)).toBe(true);
  expect(await api('GET', `/api/v1/dashboards/${manifest.dashboard.id}`)).toMatchObject({ name: manifest.dashboard.name });
  // The old release's grants stand; permissions this release added (owners hold every one; other roles their new
  // defaults, unless the workspace had overridden the role) are not the old release's business.
  const roles = (await api<{ roles: Record<string, string[]> }>('GET', '/api/v1/access-controls')).roles;
  const known = new Set(manifest.access_controls.owner ?? []);
  expect(Object.fromEntries(Object.entries(roles).map(([role, granted]) => [role, granted.filter((permission) => known.has(permission))]))).toEqual(manifest.access_controls);
  expect(roles.owner).toEqual([...permissions]);
  expect((await api<unknown[]>('GET', '/api/v1/audit-log')).length).toBeGreaterThan(0);

  // The member (invited and accepted back then) acts in the workspace with its role.
  const members = await client(service, adminJwt)<{ username: string | null; role: string }[]>('GET', '/api/v1/members');
  expect(members).toContainEqual(expect.objectContaining({ username: manifest.member.username, role: 'member' }));
  const asMember = await fetch(`${service.url}/api/v1/tests`, { headers: { authorization: `Bearer ${memberJwt}`, 'x-workspace-id': manifest.workspace_id } });
  expect(asMember.status).toBe(200);
  expect(((await asMember.json()) as unknown[]).length).toBe(manifest.tests.length);

  // The runs: figures, log, and the columns newer than the previous release: pending_reason null where nothing waits,
  // no verdict (their tests had no thresholds).
  const old = manifest.finished_run;
  for (const id of [old.id, old.public_id]) {
    expect(await api<TaskView>('GET', `/api/v1/tasks/${id}`)).toMatchObject({
      id: old.id,
      status: old.status,
      total_requests: old.total_requests,
      p50: old.p50,
      p95: old.p95,
      p99: old.p99,
      error_rate: old.error_rate,
      pending_reason: null,
      verdict: null,
      threshold_results: [],
    });
  }
  expect(await logOf(service, manifest.api_token, old.id)).toEqual(old.log_lines);
  expect(await api<TaskView>('GET', `/api/v1/tasks/${manifest.cancelled_run.id}`)).toMatchObject({ status: 'cancelled', pending_reason: null, verdict: null });
  // The task that waited for an offline machine still waits, and says why (after an upgrade: computed anew).
  let waiting: TaskView | null = null;
  await waitFor(
    async () => (waiting = await api<TaskView>('GET', `/api/v1/tasks/${manifest.waiting_run.id}`)).pending_reason !== null,
    60_000,
    () => `a pending_reason on the waiting task: ${JSON.stringify(waiting)}`,
  );
  expect(waiting!.status).toBe('pending');
  expect(waiting!.pending_reason).toContain('offline');

  // New runs: the stored test again (same figures from its samples), and one that proves the env var still decrypts.
  const custom = manifest.tests.find((t) => t.tool === 'custom')!;
  const rerun = await api<{ id: string }>('POST', '/api/v1/tasks', { testId: custom.id, configId: manifest.configs[0]!.id }, 202);
  expect(await finished(api, rerun.id)).toMatchObject({ status: 'completed', total_requests: old.total_requests, error_rate: old.error_rate, pending_reason: null });
  expect(scriptLines(await logOf(service, manifest.api_token, rerun.id))).toEqual(scriptLines(old.log_lines));
  const { key, value } = manifest.env_var_secret;
  const probe = await api<{ id: string }>('POST', '/api/v1/tests', {
    name: 'env var probe',
    tool: 'custom',
    script: `#!/bin/sh\nif [ "$${key}" = '${value}' ]; then echo env-decrypted; else echo env-missing; fi\n`,
  }, 201);
  const run = await api<{ id: string }>('POST', '/api/v1/tasks', { testId: probe.id }, 202);
  expect(await finished(api, run.id)).toMatchObject({ status: 'completed', error: null });
  expect(scriptLines(await logOf(service, manifest.api_token, run.id))).toEqual(['env-decrypted']);
}
