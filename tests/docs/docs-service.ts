/**
 * The world the documentation's examples run in, as a newcomer's checkout: a directory whose entries are the
 * repository's (linked) but whose `data/` is fresh and the DATA_DIR of a service started as `npm start` starts it,
 * so `cat data/...` and `npm run agent` work there as written. Plus a local HTTP target that the examples' made-up
 * hosts are pointed at, and a webhook receiver.
 */
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { passwordGrant, repoRoot, type ServiceProcess, startServiceProcess } from '../helpers/service-process.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.ts';

/** Answers every request with a small JSON body that has an `id` (what the examples' checks look for), counting them. */
export function startExampleTarget() {
  let served = 0;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: () => {
      served++;
      return Response.json({ status: 'ok', id: 1 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, served: () => served, stop: () => server.stop(true) };
}

export interface DocsWorld {
  service: ServiceProcess;
  /** The examples' working directory, a checkout whose `data/` is the service's DATA_DIR; `home/` is their HOME. */
  home: string;
  dataDir: string;
  target: ReturnType<typeof startExampleTarget>;
  receiver: WebhookReceiver;
  /** A full-access API token of the first admin (one per world: a user has at most 5). */
  adminToken(): Promise<string>;
  /** A request to the service's API with the admin's token. */
  api(path: string, init?: { method?: string; json?: unknown }): Promise<Response>;
  stop(): Promise<void>;
}

export async function startDocsWorld(): Promise<DocsWorld> {
  const home = await mkdtemp(join(tmpdir(), 'loadplane-docs-'));
  const dataDir = join(home, 'data');
  await mkdir(join(home, 'home'));
  // Not `data` (the world's own), not `home` (the examples' HOME): everything else is the repository's.
  for (const entry of readdirSync(repoRoot)) {
    if (!['data', 'home', '.git'].includes(entry)) await symlink(join(repoRoot, entry), join(home, entry));
  }
  const target = startExampleTarget();
  const receiver = startWebhookReceiver();
  let service: ServiceProcess;
  try {
    service = await startServiceProcess({
      // The example plugin's README runs its tool too; webhooks may reach the receiver on loopback.
      env: { DATA_DIR: dataDir, LOADPLANE_PLUGINS: 'loadplane-plugin-hey', WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
      embedded: true,
    });
  } catch (error) {
    target.stop();
    await receiver.stop();
    await rm(home, { recursive: true, force: true });
    throw error;
  }
  let token: Promise<string> | null = null;
  const adminToken = () =>
    (token ??= (async () => {
      const jwt = await passwordGrant(service.url, {
        username: 'admin',
        password: (await readFile(join(dataDir, 'initial-admin-password'), 'utf8')).trim(),
        clientSecret: (await readFile(join(dataDir, 'auth-client-secret'), 'utf8')).trim(),
      });
      const created = await fetch(`${service.url}/api/v1/api-tokens`, {
        method: 'POST',
        headers: { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'docs examples' }),
      });
      if (created.status !== 201) throw new Error(`no API token for the examples: ${created.status} ${await created.text()}`);
      return ((await created.json()) as { token: string }).token;
    })());
  return {
    service,
    home,
    dataDir,
    target,
    receiver,
    adminToken,
    async api(path, init = {}) {
      return fetch(`${service.url}${path}`, {
        method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
        headers: { authorization: `Bearer ${await adminToken()}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      });
    },
    async stop() {
      await service.stop();
      target.stop();
      await receiver.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
}
