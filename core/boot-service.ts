/**
 * Boots the whole service from its settings, the plugins the composition root loaded and the host's ports; shared by
 * every runtime entry (Bun, Deno, tests) through adapters/composition. The core names no plugin: which plugins run and
 * what each one's config slice holds is the composition root's business.
 */
import type { EntitySchema } from '@mikro-orm/core';
import { serviceGaugesCapability } from './capabilities/service-gauges.ts';
import type { RoutePolicies } from './http/route-policy.ts';
import type { RouteDeps } from './http/route-deps.ts';
import { notificationChannelCapability } from './capabilities/notification-channel.ts';
import { loadToolCapability } from './capabilities/load-tool.ts';
import { tokenVerifierCapability } from './capabilities/token-verifier.ts';
import { coreEntities } from './domain/entities/index.ts';
import { coreMigrations } from './domain/migrations/index.ts';
import { pluginMigrations } from './domain/migrations/plugin-migrations.ts';
import type { LoadplaneApp } from './http/create-app.ts';
import { createAuthenticate } from './http/authenticate.ts';
import { createKernel, type Kernel } from './kernel/create-kernel.ts';
import type { MigrationClass, PluginDefinition } from './kernel/define-plugin.ts';
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
import { createScheduleService } from './services/schedules/schedules.ts';
import { createScheduleSweep, type ScheduleSweep } from './services/schedules/schedule-sweep.ts';
import { createLocalPubSub, type PubSub } from './ports/pubsub.ts';
import { createLiveSessions } from './http/live-sessions.ts';
import type { WsKeepAlive } from './http/ws-keep-alive.ts';
import { sharedDataFiles } from './services/shared-data-files.ts';
import { createRuns, type Runs } from './services/runs/create-runs.ts';
import { createSecretBox } from './domain/secret-box.ts';
import { type DnsResolver, dnsResolverPort } from './ports/dns-resolver.ts';
import { createTimerJobQueue, type JobQueue, jobQueuePort } from './ports/job-queue.ts';
import { pubSubPort } from './ports/pubsub.ts';
import { secretBoxPort } from './ports/secret-box.ts';
import { envVarMaskerPort } from './ports/env-var-masker.ts';
import { type PinnedFetchFactory, pinnedFetchPort } from './ports/pinned-fetch.ts';
import { type WebhookTransport, webhookTransportPort } from './ports/webhook-transport.ts';
import { createOutboundUrlGuard, parseAllowList } from './services/webhooks/outbound-url-guard.ts';
import { outboxFeedPort } from './ports/outbox-feed.ts';
import { sqlDatabasePort } from './ports/sql-database.ts';
import { sqlDatabaseOf } from './services/sql.ts';
import { instanceAuditLogPort } from './ports/instance-audit-log.ts';
import { workspaceAuditLogPort } from './ports/workspace-audit-log.ts';
import { channelWakeUpPort } from './ports/channel-wake-up.ts';
import { workspaceDirectoryPort } from './ports/workspace-directory.ts';
import { createInstanceAuditLog } from './services/instance-audit-log.ts';
import { createWorkspaceAuditLog } from './services/workspace-audit-log.ts';
import { createWorkspaceDirectory } from './services/workspace-directory.ts';
import { createOutboxFeed } from './services/outbox/outbox-feed.ts';
import { createOutboxDispatcher } from './services/outbox/outbox-dispatcher.ts';
import { testToolIds } from './domain/test-rules.ts';
import { type GitFetcher, gitFetcherPort } from './ports/git-fetcher.ts';
import type { RemoteMcpClient } from './ports/remote-mcp.ts';
import { defaultRemoteMcpLimits, type RemoteMcpLimits } from './domain/mcp-server-rules.ts';
import { createMcpServerService } from './services/mcp-servers/mcp-servers.ts';
import { createRemoteToolService } from './services/mcp-servers/remote-tools.ts';
import { createDashboardService } from './services/dashboards.ts';
import { createOtelIngest } from './services/otel/otel-ingest.ts';
import { createOtelRead } from './services/otel/otel-read.ts';
import { createEnvVarService } from './services/env-vars.ts';
import { createGitRepoService } from './services/git-repos/git-repos.ts';
import { createGitSyncWorker, type GitSyncLimits, gitSyncTopic } from './services/git-repos/git-sync-worker.ts';
import { createMetricQueryService } from './services/metrics/metric-queries.ts';
import { createPrometheusApi } from './services/metrics/prometheus-api.ts';
import { createServiceHealth, type ServiceHealth } from './services/metrics/service-health.ts';
import { createMetricsRetention } from './services/metrics/metrics-retention.ts';
import { createUsageService, type UsageDeps } from './services/usage/usage-service.ts';

export const serviceVersion = '0.1.0';

/** What the core itself needs of the configuration (the config module's `Config` fits it). */
export interface ServiceSettings {
  /** Origin used in every URL the service hands out. */
  publicUrl: string;
  /** The API's OIDC client id (what the service tells clients; the provider itself is the composition root's business). */
  authClientId: string;
  /** The key that encrypts secrets at rest; unset: generated once, shared by every replica. */
  secretKey?: string;
  webhookAllowHosts: readonly string[];
  trustedProxies: readonly string[];
  defaultPlan: string;
  maxBodyBytes: number;
  agentGraceSeconds: number;
  maxLogLinesPerRun: number;
  maxLogBytesPerRun: number;
  /** 0: no deadline for pending tasks. */
  pendingTimeoutSeconds: number;
  workers: boolean;
  /** Bearer token for GET /metrics; unset: generated once, shared by every replica. */
  metricsToken?: string;
}

/** What boot works out before the plugins start, for the composition root's plugin config slices. */
export interface BootFacts {
  /** The identity provider's base URL. */
  authUrl: string;
  /** The confidential client's secret: configured, or generated once and shared by every replica. */
  clientSecret: string;
  /** Owner of the first workspace, or null (an external provider without BOOTSTRAP_ADMIN_USERNAME). */
  bootstrapUsername: string | null;
}

/** Secrets generated once and shared by every replica (through the database), unless the operator configured one. */
export interface GeneratedSecrets {
  get(name: string, configured?: string): Promise<string>;
}

export interface BootOptions {
  settings: Readonly<ServiceSettings>;
  /** The identity provider's facts (the composition root knows which provider runs and what it needs). */
  identityFacts(secrets: GeneratedSecrets): Promise<BootFacts>;
  /** Every plugin of this service, loaded by the composition root (built-in and third-party alike). */
  plugins: readonly PluginDefinition[];
  /** The plugins' config slices by plugin name, given what boot worked out. */
  pluginConfig?: (facts: BootFacts) => Record<string, Record<string, unknown>>;
  /** Data files (paths under DATA_DIR) plugins keep that every replica must share through the database. */
  sharedFiles?: readonly string[];
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
  /** A streaming fetch pinned to the outbound guard's checked address (ASK AI's model); absent: not provided. */
  pinnedFetch?: PinnedFetchFactory;
  /** Reads git repositories for the sync (a pure-JS git client); without it every sync fails. */
  gitFetcher?: GitFetcher;
  /** Talks to admins' remote MCP servers (the MCP SDK's client); without it every list skips them and every call fails. */
  remoteMcpClient?: RemoteMcpClient;
  /** Shorter deadlines or smaller size caps for remote MCP servers (tests); the defaults are in core/domain/mcp-server-rules.ts. */
  remoteMcpLimits?: Partial<RemoteMcpLimits>;
  /** How often the git sync job looks for queued repositories besides its wake-ups (default 30 s). */
  gitSyncEveryMillis?: number;
  /** Lower sync limits (tests of the byte budget and the deadline); the defaults are in core/domain/git-repo-rules.ts. */
  gitSyncLimits?: Partial<GitSyncLimits>;
  /** How often the metrics retention job runs (default hourly). */
  metricsRetentionEveryMillis?: number;
  /** Durable background jobs (Agenda on PostgreSQL); in-process timers when absent. */
  jobQueue?: (database: Database) => Promise<JobQueue>;
  /** How often the run sweep runs (default one second). */
  sweepMillis?: number;
  /** Schedules: their clock (tests move it) and how often every replica looks for due ones (default 5 s). */
  schedules?: { now?: () => Date; sweepMillis?: number };
  /** Ping interval and stale limit of task streams and agent sockets (default 30 s and 65 s). */
  wsKeepAlive?: WsKeepAlive;
  /** How often API-token last-used marks are written (default two minutes). */
  lastUsedFlushMillis?: number;
  /** The AI tool-call budget's clock and budget per plan (tests: a month's end, a small budget); default the system time and the plans. */
  usage?: Pick<UsageDeps, 'now' | 'aiToolCallBudget'>;
  /** Route wiring, the composition root's: the HTTP application over core's services and the plugins' routes. */
  httpApp(parts: HttpAppParts): { app: LoadplaneApp; routePolicies: RoutePolicies };
}

/** What the HTTP application is wired from: core's services (the route dependencies), the plugins, the settings. */
export interface HttpAppParts {
  deps: RouteDeps;
  kernel: Kernel;
  settings: Readonly<ServiceSettings>;
  logger: Logger;
  metricsToken: string;
  serviceHealth: ServiceHealth;
  assets: StaticAssets | null;
}

export interface Service {
  app: LoadplaneApp;
  kernel: Kernel;
  /** The plugins this service runs, as loaded (the local agent sets up the load tools among them again). */
  plugins: readonly PluginDefinition[];
  database: Database;
  /** The identity provider's base URL. */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  bootstrapWorkspaceId: string;
  /** API-token last-used marks; tests flush them on demand. */
  lastUsed: { flush(): Promise<void> };
  /** SECRET_KEY, or the one generated once and shared by every replica through the database. */
  secretKey: string;
  /** The bearer token of GET /metrics: METRICS_TOKEN, or the one generated once and shared by every replica. */
  metricsToken: string;
  /** The run machinery of this replica: lifecycle, agent sockets, streams, sweep. */
  runs: Runs;
  /** Fires due schedules now (the job does it every few seconds on the replicas that run jobs); tests call it. */
  schedules: Pick<ScheduleSweep, 'sweep'>;
  /** Every /api/v1 route's access policy, core's and plugins' (their API routes). */
  routePolicies: RoutePolicies;
  /** Stops every part in order; `onStage` hears each part's name as it begins (to name one that hangs). */
  stop(onStage?: (stage: string) => void): Promise<void>;
}

export async function bootService(options: BootOptions): Promise<Service> {
  const { settings, logger, plugins } = options;
  const database = await options.openDatabase({
    entities: [...coreEntities, ...plugins.flatMap((plugin) => plugin.entities ?? [])],
    migrations: [...coreMigrations, ...pluginMigrations(plugins)],
  });

  try {
    // Secrets every replica must share come from the database (the first replica's), not from its own DATA_DIR.
    const dataFiles = sharedDataFiles(database, options.dataFiles, [...(options.sharedFiles ?? []), 'secret-key', 'metrics-token']);
    // The key that encrypts secrets at rest (webhook secrets, env-var values): configured, or generated once for all replicas.
    const secretKey = await generatedSecret(dataFiles, 'secret-key', settings.secretKey);
    // GET /metrics needs a token from every caller (loopback is no credential): configured, or generated once for all replicas.
    const metricsToken = await generatedSecret(dataFiles, 'metrics-token', settings.metricsToken);
    const { authUrl, clientSecret, bootstrapUsername } = await options.identityFacts({ get: (name, configured) => generatedSecret(dataFiles, name, configured) });

    // A provider on our own origin is reached in-process, not over the network.
    let app: LoadplaneApp | null = null;
    let wakeChannels = () => {};
    const ownOrigin = new URL(settings.publicUrl).origin;
    const outboundFetch: OutboundFetch = (request) =>
      app && new URL(request.url).origin === ownOrigin ? app.handle(request) : options.fetch(request);

    const changes = options.changeFeed ? await options.changeFeed(database) : { ...createMemoryChangeFeed(), close: async () => {} };
    const pubsub = options.pubsub ? await options.pubsub() : { ...createLocalPubSub(), close: async () => {} };
    const secretBox = await createSecretBox(secretKey);
    const dnsResolver: DnsResolver = options.dnsResolver ?? { resolve: async (name) => Promise.reject(new Error(`no DNS resolver for ${name}`)) };
    const webhookTransport: WebhookTransport = options.webhookTransport ?? (async () => ({ kind: 'error', message: 'no webhook transport' }));
    const jobQueue = options.jobQueue ? await options.jobQueue(database) : createTimerJobQueue();
    const gitFetcher: GitFetcher = options.gitFetcher ?? (async () => ({ ok: false, error: 'this service has no git client' }));
    // WEBHOOK_ALLOW_HOSTS governs every request to a user-supplied URL: webhooks, git repositories and remote MCP servers alike.
    const outboundGuard = createOutboundUrlGuard({ resolver: dnsResolver, allow: parseAllowList(settings.webhookAllowHosts) });
    const envVars = createEnvVarService({ db: database, secrets: secretBox });
    const mcpServers = createMcpServerService({ db: database, guard: outboundGuard, secrets: secretBox });
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
        [sqlDatabasePort, sqlDatabaseOf(database)],
        [outboxFeedPort, createOutboxFeed(database)],
        [instanceAuditLogPort, createInstanceAuditLog(database)],
        [workspaceAuditLogPort, createWorkspaceAuditLog()],
        // The dispatcher is made once the channels are known (below); a wake-up only comes from a request, after boot.
        [channelWakeUpPort, { queued: () => wakeChannels() }],
        [workspaceDirectoryPort, createWorkspaceDirectory()],
        [gitFetcherPort, gitFetcher],
        [secretBoxPort, secretBox],
        // ASK AI masks every env-var value in what it sends its model; the values stay here.
        [envVarMaskerPort, { maskerFor: (workspaceId: string) => envVars.maskerFor(workspaceId) }],
        ...(options.pinnedFetch ? ([[pinnedFetchPort, options.pinnedFetch]] as const) : []),
        ...(options.assets ? ([[staticAssetsPort, options.assets]] as const) : []),
      ],
      required: [tokenVerifierCapability],
      pluginConfig: options.pluginConfig?.({ authUrl, clientSecret, bootstrapUsername }) ?? {},
    });

    // Notification channels (webhooks, e-mail) read the outbox at their own pace; the dispatcher tells them when.
    const outbox = await createOutboxDispatcher({
      channels: kernel.getAll(notificationChannelCapability),
      feed: kernel.get(outboxFeedPort),
      hooks: kernel.hooks,
      pubsub,
      workers: settings.workers,
      logger: logger.child({ part: 'outbox' }),
    });
    wakeChannels = () => outbox.queued();
    const bootstrapWorkspace = await ensureBootstrapWorkspace(database, bootstrapUsername);
    const callers = createCallerResolver({ db: database, hooks: kernel.hooks, changes, defaultPlan: settings.defaultPlan });
    const lastUsed = createLastUsedRecorder(database, options.lastUsedFlushMillis);
    const apiTokenAuthenticator = createApiTokenAuthenticator({ db: database, callers, changes, lastUsed });
    const tools = new Map(kernel.getAll(loadToolCapability).map((tool) => [tool.tool, tool]));
    // The tool ids tests may use: the spec's six, and every registered load tool's (a third-party plugin's too).
    const toolIds = testToolIds(tools.keys());
    const runs = await createRuns({
      db: database,
      hooks: kernel.hooks,
      logger: logger.child({ part: 'runs' }),
      pubsub,
      tools,
      settings: {
        publicUrl: settings.publicUrl,
        agentGraceMillis: settings.agentGraceSeconds * 1000,
        heartbeatSeconds: 5,
        leaseSeconds: 15,
        sweepMillis: options.sweepMillis ?? 1000,
        pendingTimeoutSeconds: settings.pendingTimeoutSeconds || null,
      },
      maxStoredLogLines: settings.maxLogLinesPerRun,
      maxStoredLogBytes: settings.maxLogBytesPerRun,
      workers: settings.workers,
      envVars,
    });
    // Git syncs run where jobs run; an API-only replica (WORKERS=false) passes the wake-up on to them.
    const gitSync = settings.workers
      ? createGitSyncWorker({
          db: database,
          guard: outboundGuard,
          fetcher: gitFetcher,
          secrets: secretBox,
          hooks: kernel.hooks,
          logger: logger.child({ part: 'git-sync' }),
          limits: options.gitSyncLimits,
          validateScript: (tool, script) => tools.get(tool)?.validateScript(script) ?? null,
        })
      : null;
    const scheduleSweep = createScheduleSweep({ db: database, tasks: runs.tasks, logger: logger.child({ part: 'schedules' }), now: options.schedules?.now });
    // Each service registers its own jobs, on the replicas that run jobs: git syncs, the pruning of run time series
    // older than the workspace's plan keeps, and due schedules (the claim in the database makes each fire once).
    const unsubscribeGitWake = gitSync ? await gitSync.schedule(jobQueue, pubsub, options.gitSyncEveryMillis) : () => {};
    if (settings.workers) {
      await createMetricsRetention({ db: database }).schedule(jobQueue, options.metricsRetentionEveryMillis);
      await scheduleSweep.schedule(jobQueue, options.schedules?.sweepMillis);
    }
    const gitSyncQueued = () => {
      if (gitSync) void gitSync.wake();
      else void pubsub.publish(gitSyncTopic, '').catch((error) => logger.warn('could not wake the git sync', { error: String(error) }));
    };
    const live = createLiveSessions((error) => logger.error('re-checking a live session failed', { error: String(error) }));
    // After the caches dropped what changed (their handlers run first), every open stream and agent socket is re-checked.
    changes.subscribe(() => void live.recheckAll());
    const deps = {
      db: database,
      hooks: kernel.hooks,
      authenticate: createAuthenticate({ verifier: kernel.get(tokenVerifierCapability), callers, apiTokens: apiTokenAuthenticator }),
      machines: createMachineService({ db: database, hooks: kernel.hooks, requestCalibration: (machineId) => runs.calibrate(machineId) }),
      tests: createTestDefinitionService({ db: database, hooks: kernel.hooks, toolIds, validateScript: (tool, script) => tools.get(tool)?.validateScript(script) ?? null }),
      apiTokens: createApiTokenService({ db: database, changes }),
      members: createMemberService({ db: database, changes }),
      invitations: createInvitationService({ db: database, changes }),
      accessControls: createAccessControlService({ db: database, changes }),
      workspaces: createWorkspaceService({ db: database, changes }),
      tasks: runs.tasks,
      configs: createConfigService({ db: database }),
      schedules: createScheduleService({ db: database, now: options.schedules?.now }),
      envVars,
      dashboards: createDashboardService({ db: database }),
      otelIngest: createOtelIngest({ db: database }),
      otelRead: createOtelRead({ db: database }),
      usage: createUsageService({ db: database, ...options.usage }),
      gitRepos: createGitRepoService({ db: database, guard: outboundGuard, secrets: secretBox, queued: gitSyncQueued }),
      mcpServers,
      remoteTools: createRemoteToolService({
        db: database,
        servers: mcpServers,
        guard: outboundGuard,
        client: options.remoteMcpClient ?? null,
        limits: { ...defaultRemoteMcpLimits, ...options.remoteMcpLimits },
      }),
      metricQueries: createMetricQueryService({ db: database }),
      prometheus: createPrometheusApi({ db: database }),
      streams: runs.streams,
      agentSessions: runs.sessions,
      live,
      publicUrl: settings.publicUrl,
      toolIds,
      wsKeepAlive: options.wsKeepAlive,
    };
    // The routes over these services are the composition root's to wire (core's and the plugins').
    const http = options.httpApp({
      deps,
      kernel,
      settings,
      logger,
      metricsToken,
      serviceHealth: createServiceHealth({ db: database, version: serviceVersion, plugins: kernel.getAll(serviceGaugesCapability) }),
      assets: options.assets,
    });
    app = http.app;
    const routePolicies = http.routePolicies;

    // Jobs are defined by the plugins' setup; an API-only replica (WORKERS=false) takes none.
    if (settings.workers) await jobQueue.start();

    return {
      app,
      kernel,
      routePolicies,
      plugins,
      database,
      authUrl,
      clientId: settings.authClientId,
      clientSecret,
      bootstrapWorkspaceId: bootstrapWorkspace.id,
      secretKey,
      metricsToken,
      lastUsed,
      runs,
      schedules: scheduleSweep,
      async stop(onStage = () => {}) {
        const stages: [string, () => void | Promise<void>][] = [
          ['runs', () => runs.stop()],
          ['outbox dispatcher', () => outbox.stop()],
          ['git sync', async () => {
            unsubscribeGitWake();
            await gitSync?.stop();
          }],
          ['job queue', () => jobQueue.stop()],
          ['plugins', () => kernel.stop()],
          ['token last-used writes', () => lastUsed.stop()],
          ['change feed', () => changes.close()],
          ['pubsub', () => pubsub.close()],
          ['database', () => database.close()],
        ];
        for (const [stage, stop] of stages) {
          onStage(stage);
          await stop();
        }
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
