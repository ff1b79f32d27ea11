/** Boots the real service in-process for tests: PGlite in memory by default, a fresh PostgreSQL database when DATABASE_URL is set. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/load-config.ts';
import type { BootOptions, Service } from '../../core/boot-service.ts';
import { type ComposeOptions, composeService } from '../../adapters/composition/compose-service.ts';
import { createConsoleLogger } from '../../core/kernel/console-logger.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { openDatabase } from '../../adapters/db/open-database.ts';
import { changeFeedForConfig, pubSubForConfig } from '../../adapters/pubsub/change-feed-for-config.ts';
import { createDiskDataFiles } from '../../adapters/files/disk-data-files.ts';
import { createPackageStaticAssets } from '../../adapters/files/package-static-assets.ts';
import { startPostgresServer } from './postgres-server.ts';
import { reportingSlowStep } from './slow-step-report.ts';
import { jobQueueForConfig } from '../../adapters/queue/job-queue-for-config.ts';
import { createNodeDnsResolver } from '../../adapters/net/node-dns-resolver.ts';
import { createNodeWebhookTransport } from '../../adapters/net/node-webhook-transport.ts';
import { createPinnedFetch } from '../../adapters/net/pinned-fetch.ts';
import { createIsomorphicGitFetcher } from '../../adapters/git/isomorphic-git-fetcher.ts';
import { createSdkRemoteMcpClient } from '../../adapters/mcp/remote-mcp-client.ts';

export const adminPassword = 'admin-password-for-tests';

export interface TestService {
  service: Service;
  /** Set by `listen()`: the origin of the real socket server. */
  url: string;
  /** Serves the app on a real loopback socket (for SSE, WebSocket and agent tests). */
  listen(): Promise<string>;
  /** An API token of a fresh user (owner of their own workspace) with these scopes. */
  apiToken(username: string, scopes?: string[]): Promise<{ token: string; jwt: string }>;
  dataDir: string;
  /** In-process request against the app; `path` is relative to the origin. */
  request(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  /** An access token from the embedded IdP's password grant. */
  tokenFor(username: string, password?: string): Promise<string>;
  /** Creates a user in the embedded IdP (admin API) and returns a token for them. */
  createUser(username: string, options?: { roles?: string[]; email?: string; emailVerified?: boolean }): Promise<string>;
  stop(): Promise<void>;
}

export interface TestServiceOptions {
  env?: Record<string, string>;
  /** Reuse a data directory (restart tests); a fresh temp dir otherwise. */
  dataDir?: string;
  /** 'memory' (default unless DATABASE_URL), 'disk' (PGlite under dataDir), or a postgres URL. */
  database?: 'memory' | 'disk' | string;
  keepDataDir?: boolean;
  /** The port `listen()` will use (PUBLIC_URL follows it); pick one with freePort(). */
  port?: number;
  /** Replaces the change feed the config would pick (tests of its reconnect tune its retry delays). */
  changeFeed?: BootOptions['changeFeed'];
  /** Merged over the test defaults per plugin slice, e.g. `{ 'identity-embedded': { bruteForce: {...} } }`. */
  pluginConfig?: Record<string, Record<string, unknown>>;
  /** Extra boot options (a job queue, a clock-driven plugin config). */
  boot?: Partial<ComposeOptions>;
}

export const usesPostgres = () => Boolean(process.env.DATABASE_URL);

export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'loadplane-test-')));
  let postgres: Awaited<ReturnType<typeof startPostgresServer>> = null;
  let databaseUrl: string | undefined;
  if (options.database && options.database !== 'memory' && options.database !== 'disk') {
    databaseUrl = options.database;
  } else if (!options.database && usesPostgres()) {
    postgres = await startPostgresServer();
    if (!postgres) throw new Error('DATABASE_URL is set but no PostgreSQL server could be reached');
    databaseUrl = postgres.url;
  }
  const port = options.port ?? 8080;
  const config = loadConfig({
    PORT: String(port),
    AGENT_GRACE_SECONDS: '3',
    ...(options.port ? { PUBLIC_URL: `http://127.0.0.1:${options.port}` } : {}),
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_USERNAME: 'admin',
    BOOTSTRAP_ADMIN_PASSWORD: adminPassword,
    LOCAL_AGENT: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const openDb: BootOptions['openDatabase'] = (schema) =>
    openDatabase({
      ...schema,
      databaseUrl: config.databaseUrl,
      pgliteDir: options.database === 'disk' ? join(dataDir, 'pglite') : 'memory://',
    });
  // TEST_LOG=debug shows the service's log lines while debugging a test.
  const logger = process.env.TEST_LOG ? createConsoleLogger(process.env.TEST_LOG as 'debug') : silentLogger;
  const service = await composeService({
    config,
    logger,
    changeFeed: options.changeFeed ?? changeFeedForConfig(config, logger),
    pubsub: pubSubForConfig(config, logger),
    dataFiles: createDiskDataFiles(dataDir),
    assets: createPackageStaticAssets(),
    openDatabase: openDb,
    fetch: () => Promise.reject(new Error('tests make no network calls')),
    // Webhooks reach only what WEBHOOK_ALLOW_HOSTS allows (a loopback receiver in the tests that set it).
    dnsResolver: createNodeDnsResolver(),
    webhookTransport: createNodeWebhookTransport(),
    pinnedFetch: createPinnedFetch,
    gitFetcher: createIsomorphicGitFetcher(),
    remoteMcpClient: createSdkRemoteMcpClient(),
    jobQueue: jobQueueForConfig(config, logger),
    pluginConfigOverrides: {
      ...options.pluginConfig,
      'identity-embedded': { passwordIterations: 1000, ...options.pluginConfig?.['identity-embedded'] },
    },
    ...options.boot,
  });

  const origin = config.publicUrl;
  const request: TestService['request'] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set('authorization', `Bearer ${init.token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return service.app.handle(new Request(`${origin}${path}`, { ...init, headers, body }));
  };

  const tokenFor = async (username: string, password = 'password-for-tests') => {
    const response = await request(`/auth/realms/${config.authRealm}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: service.clientId,
        client_secret: service.clientSecret,
        username,
        password,
      }).toString(),
    });
    if (response.status !== 200) throw new Error(`password grant for ${username}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { access_token: string }).access_token;
  };

  let adminToken: string | null = null;
  const createUser: TestService['createUser'] = async (username, userOptions = {}) => {
    adminToken ??= await tokenFor('admin', adminPassword);
    const response = await request(`/auth/admin/realms/${config.authRealm}/users`, {
      method: 'POST',
      token: adminToken,
      json: {
        username,
        email: userOptions.email ?? `${username}@example.test`,
        emailVerified: userOptions.emailVerified ?? false,
        firstName: username,
        lastName: 'Tester',
        enabled: true,
        realmRoles: userOptions.roles ?? ['user'],
        credentials: [{ type: 'password', value: 'password-for-tests', temporary: false }],
      },
    });
    if (response.status !== 201) throw new Error(`create user ${username}: ${response.status} ${await response.text()}`);
    return tokenFor(username);
  };

  const apiToken: TestService['apiToken'] = async (username, scopes) => {
    const jwt = await createUser(username);
    const response = await request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name: `${username} token`, ...(scopes ? { scopes } : {}) } });
    if (response.status !== 201) throw new Error(`api token for ${username}: ${response.status} ${await response.text()}`);
    return { token: ((await response.json()) as { token: string }).token, jwt };
  };

  let listening = false;
  const handle: TestService = {
    service,
    dataDir,
    url: '',
    async listen() {
      if (!listening) {
        service.app.listen({ port, hostname: '127.0.0.1', idleTimeout: 120 });
        listening = true;
        handle.url = `http://127.0.0.1:${port}`;
      }
      return handle.url;
    },
    apiToken,
    request,
    tokenFor,
    createUser,
    async stop() {
      if (listening) await reportingSlowStep('test service: closing its socket server', () => service.app.stop(true));
      let stage = '';
      await reportingSlowStep(() => `test service: service.stop() at its ${stage}`, () => service.stop((next) => (stage = next)));
      if (postgres) await reportingSlowStep('test service: dropping its PostgreSQL database', () => postgres!.stop());
      if (!options.keepDataDir && !options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}
