/** Boots the whole service from a validated config and the host's ports; shared by every runtime entry (Bun, Deno, tests). */
import type { EntitySchema } from '@mikro-orm/core';
import type { Config } from '../config/schema.ts';
import { builtinPlugins } from '../plugins/builtin.ts';
import { httpRoutesCapability } from './capabilities/http-routes.ts';
import { loadToolCapability } from './capabilities/load-tool.ts';
import { tokenVerifierCapability } from './capabilities/token-verifier.ts';
import { coreEntities } from './domain/entities/index.ts';
import { coreMigrations } from './domain/migrations/index.ts';
import { createApp, type LoadplaneApp } from './http/create-app.ts';
import { createAuthenticate } from './http/authenticate.ts';
import { createKernel, type Kernel } from './kernel/create-kernel.ts';
import type { MigrationClass, PluginDefinition } from './kernel/define-plugin.ts';
import { loadPlugins } from './kernel/load-plugins.ts';
import type { Logger } from './kernel/logger.ts';
import { type ChangeFeed, changeFeedPort, createMemoryChangeFeed } from './ports/change-feed.ts';
import { type DataFiles, dataFilesPort } from './ports/data-files.ts';
import { type Database, databasePort } from './ports/database.ts';
import { type OutboundFetch, outboundFetchPort } from './ports/outbound-fetch.ts';
import { type StaticAssets, staticAssetsPort } from './ports/static-assets.ts';
import { ensureBootstrapWorkspace } from './services/bootstrap-workspace.ts';
import { createCallerResolver } from './services/caller-resolver.ts';
import { generatedSecret } from './services/generated-secret.ts';
import { createAccessControlService } from './services/access-controls.ts';
import { createApiTokenAuthenticator } from './services/api-token-authenticator.ts';
import { createApiTokenService } from './services/api-tokens.ts';
import { createLastUsedRecorder } from './services/last-used-recorder.ts';
import { createMachineService } from './services/machines.ts';
import { createInvitationService } from './services/member-invitations.ts';
import { createMemberService } from './services/members.ts';
import { createTestDefinitionService } from './services/test-definitions.ts';
import { createWorkspaceService } from './services/workspaces.ts';
import { createConfigService } from './services/configs.ts';
import { createLocalPubSub, type PubSub } from './ports/pubsub.ts';
import { createLiveSessions } from './http/live-sessions.ts';
import { sharedDataFiles } from './services/shared-data-files.ts';
import { createRuns, type Runs } from './services/runs/create-runs.ts';
import { createSecretBox } from './domain/secret-box.ts';
import { type DnsResolver, dnsResolverPort } from './ports/dns-resolver.ts';
import { createTimerJobQueue, type JobQueue, jobQueuePort } from './ports/job-queue.ts';
import { pubSubPort } from './ports/pubsub.ts';
import { secretBoxPort } from './ports/secret-box.ts';
import { type WebhookTransport, webhookTransportPort } from './ports/webhook-transport.ts';
import { createOutboundUrlGuard, parseAllowList } from './services/webhooks/outbound-url-guard.ts';
import { createWebhookService } from './services/webhooks/webhooks.ts';

export const serviceVersion = '0.1.0';

export interface BootOptions {
  config: Readonly<Config>;
  logger: Logger;
  dataFiles: DataFiles;
  assets: StaticAssets | null;
  openDatabase(schema: {
    entities: readonly EntitySchema[];
    migrations: readonly MigrationClass[];
  }): Promise<Database & { close(): Promise<void> }>;
  /** The network fetch for everything that is not this service's own origin. */
  fetch: OutboundFetch;
  /** Cross-process invalidation of cached access data; in-memory (one process) when absent. */
  changeFeed?: (database: Database) => Promise<ChangeFeed & { close(): Promise<void> }>;
  /** Wake-ups between replicas (run events, agent commands); one process only when absent. */
  pubsub?: () => Promise<PubSub & { close(): Promise<void> }>;
  /** DNS for user-supplied URLs (webhooks); without it every name is refused as unresolvable. */
  dnsResolver?: DnsResolver;
  /** Sends webhook attempts to a checked address; without it every attempt fails. */
  webhookTransport?: WebhookTransport;
  /** Durable background jobs (Agenda on PostgreSQL); in-process timers when absent. */
  jobQueue?: (database: Database) => Promise<JobQueue>;
  /** How often the run sweep runs (default one second). */
  sweepMillis?: number;
  /** How often API-token last-used marks are written (default two minutes). */
  lastUsedFlushMillis?: number;
  /** Extra plugin definitions (tests); configured plugins load by name. */
  extraPlugins?: readonly PluginDefinition[];
  /** Merged over the config slices derived from `config` (tests lower the password KDF cost, for one). */
  pluginConfigOverrides?: Readonly<Record<string, Record<string, unknown>>>;
}

export interface Service {
  app: LoadplaneApp;
  kernel: Kernel;
  database: Database;
  /** The embedded identity provider's base URL, or the external one. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  bootstrapWorkspaceId: string;
  /** API-token last-used marks; tests flush them on demand. */
  lastUsed: { flush(): Promise<void> };
  /** SECRET_KEY, or the one generated once and shared by every replica through the database. */
  secretKey: string;
  /** The run machinery of this replica: lifecycle, agent sockets, streams, sweep. */
  runs: Runs;
  stop(): Promise<void>;
}

/** Which plugins a config asks for: the embedded IdP unless AUTH_URL names an external one, then the extras. */
export function pluginNamesFor(config: Readonly<Config>): string[] {
  return [...(config.authUrl ? [] : ['identity-embedded']), 'identity-oidc', 'load-tool-custom', 'load-tool-k6', 'notify-webhook', 'notify-email', ...config.plugins];
}

export async function bootService(options: BootOptions): Promise<Service> {
  const { config, logger } = options;
  const plugins = [...(await loadPlugins(pluginNamesFor(config), builtinPlugins)), ...(options.extraPlugins ?? [])];
  const database = await options.openDatabase({
    entities: [...coreEntities, ...plugins.flatMap((plugin) => plugin.entities ?? [])],
    migrations: [...coreMigrations, ...plugins.flatMap((plugin) => plugin.migrations ?? [])],
  });

  try {
    // Secrets every replica must share come from the database (the first replica's), not from its own DATA_DIR.
    const dataFiles = sharedDataFiles(database, options.dataFiles, ['identity/realm-key.json', 'auth-client-secret', 'secret-key']);
    const embedded = !config.authUrl;
    // The key that encrypts secrets at rest (webhook secrets, env-var values): configured, or generated once for all replicas.
    const secretKey = await generatedSecret(dataFiles, 'secret-key', config.secretKey);
    const authUrl = config.authUrl ?? `${config.publicUrl}/auth`;
    // Only the embedded IdP can use a generated secret; an external one has its own (AUTH_CLIENT_SECRET).
    const clientSecret = embedded
      ? await generatedSecret(dataFiles, 'auth-client-secret', config.authClientSecret)
      : (config.authClientSecret ?? '');
    // With the embedded IdP there is always an admin: the configured one, or `admin` with a generated password.
    const bootstrapUsername = config.bootstrapAdminUsername ?? (embedded ? 'admin' : null);

    // The embedded IdP lives on our own origin: reach it in-process, not over the network.
    let app: LoadplaneApp | null = null;
    const ownOrigin = new URL(config.publicUrl).origin;
    const outboundFetch: OutboundFetch = (request) =>
      app && new URL(request.url).origin === ownOrigin ? app.handle(request) : options.fetch(request);

    const changes = options.changeFeed ? await options.changeFeed(database) : { ...createMemoryChangeFeed(), close: async () => {} };
    const pubsub = options.pubsub ? await options.pubsub() : { ...createLocalPubSub(), close: async () => {} };
    const secretBox = await createSecretBox(secretKey);
    const dnsResolver: DnsResolver = options.dnsResolver ?? { resolve: async (name) => Promise.reject(new Error(`no DNS resolver for ${name}`)) };
    const webhookTransport: WebhookTransport = options.webhookTransport ?? (async () => ({ kind: 'error', message: 'no webhook transport' }));
    const jobQueue = options.jobQueue ? await options.jobQueue(database) : createTimerJobQueue();
    const kernel = await createKernel({
      plugins,
      logger,
      provided: [
        [databasePort, database],
        [dataFilesPort, dataFiles],
        [outboundFetchPort, outboundFetch],
        [changeFeedPort, changes],
        [pubSubPort, pubsub],
        [dnsResolverPort, dnsResolver],
        [webhookTransportPort, webhookTransport],
        [jobQueuePort, jobQueue],
        [secretBoxPort, secretBox],
        ...(options.assets ? ([[staticAssetsPort, options.assets]] as const) : []),
      ],
      required: [tokenVerifierCapability],
      pluginConfig: mergeSlices(options.pluginConfigOverrides, {
        'identity-embedded': {
          issuerBaseUrl: authUrl,
          realm: config.authRealm,
          clientId: config.authClientId,
          clientSecret,
          // The bundled UI signs in with the authorization-code flow and returns to our own origin.
          redirectUris: [`${config.publicUrl}/*`],
          ...(bootstrapUsername
            ? {
                bootstrapAdmin: {
                  username: bootstrapUsername,
                  ...(config.bootstrapAdminPassword ? { password: config.bootstrapAdminPassword } : {}),
                },
              }
            : {}),
        },
        // Tokens name the public issuer; discovery may go through another (back-channel) address.
        'identity-oidc': {
          issuer: config.authIssuer ?? `${authUrl}/realms/${config.authRealm}`,
          discoveryBase: `${authUrl}/realms/${config.authRealm}`,
          clientId: config.authClientId,
        },
        'notify-webhook': { publicUrl: config.publicUrl, workers: config.workers, allowHosts: [...config.webhookAllowHosts] },
        'notify-email': { ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}), publicUrl: config.publicUrl, workers: config.workers },
      }),
    });

    const bootstrapWorkspace = await ensureBootstrapWorkspace(database, bootstrapUsername);
    const callers = createCallerResolver({ db: database, hooks: kernel.hooks, changes, defaultPlan: config.defaultPlan });
    const lastUsed = createLastUsedRecorder(database, options.lastUsedFlushMillis);
    const apiTokenAuthenticator = createApiTokenAuthenticator({ db: database, callers, changes, lastUsed });
    const runs = await createRuns({
      db: database,
      hooks: kernel.hooks,
      logger: logger.child({ part: 'runs' }),
      pubsub,
      tools: new Map(kernel.getAll(loadToolCapability).map((tool) => [tool.tool, tool])),
      settings: {
        publicUrl: config.publicUrl,
        agentGraceMillis: config.agentGraceSeconds * 1000,
        heartbeatSeconds: 5,
        leaseSeconds: 15,
        sweepMillis: options.sweepMillis ?? 1000,
        pendingTimeoutSeconds: config.pendingTimeoutSeconds || null,
      },
      maxStoredLogLines: config.maxLogLinesPerRun,
      maxStoredLogBytes: config.maxLogBytesPerRun,
      workers: config.workers,
    });
    const live = createLiveSessions((error) => logger.error('re-checking a live session failed', { error: String(error) }));
    // After the caches dropped what changed (their handlers run first), every open stream and agent socket is re-checked.
    changes.subscribe(() => void live.recheckAll());
    const deps = {
      db: database,
      hooks: kernel.hooks,
      authenticate: createAuthenticate({ verifier: kernel.get(tokenVerifierCapability), callers, apiTokens: apiTokenAuthenticator }),
      machines: createMachineService({ db: database, hooks: kernel.hooks }),
      tests: createTestDefinitionService({ db: database, hooks: kernel.hooks }),
      apiTokens: createApiTokenService({ db: database, changes }),
      members: createMemberService({ db: database, changes }),
      invitations: createInvitationService({ db: database, changes }),
      accessControls: createAccessControlService({ db: database, changes }),
      workspaces: createWorkspaceService({ db: database, changes }),
      tasks: runs.tasks,
      configs: createConfigService({ db: database }),
      webhooks: createWebhookService({
        db: database,
        guard: createOutboundUrlGuard({ resolver: dnsResolver, allow: parseAllowList(config.webhookAllowHosts) }),
        secrets: secretBox,
        queued: (workspaceId) => void kernel.hooks.callHook('webhook:queued', { workspaceId }),
      }),
      streams: runs.context.streams,
      agentSessions: runs.sessions,
      live,
      publicUrl: config.publicUrl,
    };
    app = createApp({
      ...deps,
      logger,
      maxBodyBytes: config.maxBodyBytes,
      version: serviceVersion,
      pluginRoutes: kernel.getAll(httpRoutesCapability),
      assets: options.assets,
    });

    // Jobs are defined by the plugins' setup; an API-only replica (WORKERS=false) takes none.
    if (config.workers) await jobQueue.start();

    return {
      app,
      kernel,
      database,
      authUrl,
      clientId: config.authClientId,
      clientSecret,
      bootstrapWorkspaceId: bootstrapWorkspace.id,
      secretKey,
      lastUsed,
      runs,
      async stop() {
        await runs.stop();
        await jobQueue.stop();
        await kernel.stop();
        await lastUsed.stop();
        await changes.close();
        await pubsub.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

function mergeSlices(
  overrides: BootOptions['pluginConfigOverrides'],
  slices: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  const merged = { ...slices };
  for (const [name, slice] of Object.entries(overrides ?? {})) merged[name] = { ...merged[name], ...slice };
  return merged;
}
