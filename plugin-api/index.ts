/**
 * `loadplane/plugin`: the public plugin API. Everything a plugin imports from Loadplane comes from here (built-in and
 * third-party plugins alike), never from `core/...`: definePlugin, the capability contracts (a load tool's two halves
 * first), load-config helpers, the mergeable latency histogram and the metric recorder, the engine locator and
 * provideEngineTool (a load-tool plugin's setup in one call), the ports a plugin may use, and the domain errors.
 * Runtime-agnostic like the core it re-exports. The guide: docs/plugins.md.
 */

// ---- Plugins and the kernel --------------------------------------------------------------------------------------
export { definePlugin } from '../core/kernel/define-plugin.ts';
export type { MigrationClass, PluginContext, PluginDefinition } from '../core/kernel/define-plugin.ts';
export type { SqlMigration } from '../core/kernel/sql-migration.ts';
export { defineCapability } from '../core/kernel/define-capability.ts';
export type { AnyCapabilityToken, CapabilityToken, Cardinality, Resolved } from '../core/kernel/define-capability.ts';
export type { HookBus, HookHandler } from '../core/kernel/hook-bus.ts';
export type { KernelHooks } from '../core/kernel/hooks.ts';
export { silentLogger } from '../core/kernel/logger.ts';
export { coalescingPass } from '../core/kernel/coalescing-pass.ts';
export type { CoalescingPass } from '../core/kernel/coalescing-pass.ts';
export type { Logger } from '../core/kernel/logger.ts';
export { badRequest, conflict, DomainError, forbidden, KernelBootError, notFound, unauthorized } from '../core/kernel/errors.ts';
export type { ErrorCode } from '../core/kernel/errors.ts';

// ---- Load tools: the contract, load configurations, outcomes ------------------------------------------------------
export { loadToolCapability } from '../core/capabilities/load-tool.ts';
export type {
  Assignment,
  EndpointSnapshot,
  ErrorGroup,
  ErrorKind,
  LoadConfig,
  LoadTool,
  MetricSnapshot,
  RunOutcome,
  ToolCommand,
  ToolOutputParser,
} from '../core/capabilities/load-tool.ts';
export {
  configDurationMs,
  formatDuration,
  isIdleShare,
  machineShare,
  maxDurationMs,
  maxStages,
  maxVus,
  parseDuration,
  splitLoadConfig,
  validateLoadConfig,
} from '../core/domain/load-config.ts';
export { processOutcome } from '../core/domain/process-outcome.ts';
export { specTools } from '../core/domain/test-rules.ts';

// ---- Metrics: mergeable latency histograms and the per-run recorder -----------------------------------------------
export { LatencyHistogram, maxTrackableMicros } from '../core/domain/metrics/histogram.ts';
export type { EncodedHistogram } from '../core/domain/metrics/histogram.ts';
export {
  emptySnapshot,
  endpointNameOf,
  errorMessageOf,
  maxEndpointNames,
  maxErrorGroups,
  MetricRecorder,
  otherEndpoint,
} from '../core/domain/metrics/metric-recorder.ts';
export type { FailureDetail } from '../core/domain/metrics/metric-recorder.ts';
export { mergeSummaries } from '../core/domain/metrics/merge-summaries.ts';
export { absorbEngineEndpoint, engineEndpointPrefix, readEngineSnapshot } from '../core/domain/metrics/engine-snapshot.ts';
export { LatencyCountsReader, latencyCountsPrefix } from '../core/domain/metrics/latency-counts.ts';
export type { RunFigures } from '../core/domain/metrics/merge-summaries.ts';

// ---- Engines and programs on the agent's machine ------------------------------------------------------------------
export { engineAvailability, engineLocatorPort, locateEngine } from '../core/ports/engine-locator.ts';
export type { EngineLocator, EngineSource, EngineSpec, LocatedEngine } from '../core/ports/engine-locator.ts';
export { provideEngineTool } from '../core/capabilities/provide-engine-tool.ts';
export type { EngineChoice, EngineToolOptions } from '../core/capabilities/provide-engine-tool.ts';
export { programLookupPort } from '../core/ports/program-lookup.ts';
export type { ProgramLookup } from '../core/ports/program-lookup.ts';
export { moduleRuntimePort } from '../core/ports/module-runtime.ts';
export type { ModuleRuntime } from '../core/ports/module-runtime.ts';

// ---- Other capabilities: identity, HTTP routes --------------------------------------------------------------------
export { tokenVerifierCapability } from '../core/capabilities/token-verifier.ts';
export type { TokenVerifier, VerifiedIdentity } from '../core/capabilities/token-verifier.ts';
export { httpRoutesCapability } from '../core/capabilities/http-routes.ts';
export type { HttpRoutes } from '../core/capabilities/http-routes.ts';
export { serviceGaugesCapability } from '../core/capabilities/service-gauges.ts';
export type { GaugeFamily, ServiceGauges } from '../core/capabilities/service-gauges.ts';
export { apiRoutesCapability } from '../core/capabilities/api-routes.ts';
export type { ApiRouteKit, ApiRoutes } from '../core/capabilities/api-routes.ts';
export { apiEndpointsCapability } from '../core/capabilities/api-endpoints.ts';
export type { ApiEndpoint, ApiEndpointRequest, ApiEndpoints, ApiMethod, EndpointPolicy } from '../core/capabilities/api-endpoints.ts';
export type { RoutePolicy } from '../core/http/route-policy.ts';
export type { CallerGuard } from '../core/http/require-caller.ts';
export type { Caller } from '../core/services/caller.ts';
export { bearerSecurity, documented, errorResponses, IdParams, Integer, Timestamp } from '../core/http/schemas/common.ts';
export { PageQuery, pagedList } from '../core/http/paging.ts';
export { isUuid } from '../core/services/workspace-scope.ts';
export { clientAddressOf } from '../core/http/client-address.ts';
export { addressKey, formatIp } from '../core/domain/ip-address.ts';

// ---- Ports the service provides to its plugins --------------------------------------------------------------------
export { databasePort } from '../core/ports/database.ts';
export type { Database } from '../core/ports/database.ts';
export { isUniqueViolation, placeholders, sqlOf, transaction } from '../core/services/sql.ts';
export type { Sql, Tx } from '../core/services/sql.ts';
export { sqlDatabasePort } from '../core/ports/sql-database.ts';
export type { SqlDatabase } from '../core/ports/sql-database.ts';
export { createMemoryDataFiles, dataFilesPort } from '../core/ports/data-files.ts';
export type { DataFiles } from '../core/ports/data-files.ts';
export { outboundFetchPort } from '../core/ports/outbound-fetch.ts';
export type { OutboundFetch } from '../core/ports/outbound-fetch.ts';
export { pubSubPort } from '../core/ports/pubsub.ts';
export type { PubSub } from '../core/ports/pubsub.ts';
export { jobQueuePort } from '../core/ports/job-queue.ts';
export type { JobQueue } from '../core/ports/job-queue.ts';
export { secretBoxPort } from '../core/ports/secret-box.ts';
export type { SecretBox } from '../core/ports/secret-box.ts';
export { envVarMaskerPort } from '../core/ports/env-var-masker.ts';
export type { EnvVarMasker, Masker } from '../core/ports/env-var-masker.ts';
export { pinnedFetchPort } from '../core/ports/pinned-fetch.ts';
export type { AddressCheck, PinnedFetch, PinnedFetchFactory, PinnedFetchOptions } from '../core/ports/pinned-fetch.ts';
export { dnsResolverPort } from '../core/ports/dns-resolver.ts';
export type { DnsResolver } from '../core/ports/dns-resolver.ts';
export { webhookTransportPort } from '../core/ports/webhook-transport.ts';
export { staticAssetsPort } from '../core/ports/static-assets.ts';
export type { StaticAssets } from '../core/ports/static-assets.ts';
export type { WebhookPost, WebhookPostResult, WebhookTransport } from '../core/ports/webhook-transport.ts';

// ---- Notification channels: the outbox under a cursor of their own, webhook envelopes, retries, the URL guard ------
export { notificationChannelCapability } from '../core/capabilities/notification-channel.ts';
export type { NotificationChannel } from '../core/capabilities/notification-channel.ts';
export { outboxFeedPort } from '../core/ports/outbox-feed.ts';
export type { OutboxConsumeOptions, OutboxFeed, OutboxRecord } from '../core/ports/outbox-feed.ts';
export { envelopeBody, eventOfOutboxRow, isWebhookEvent, webhookEvents } from '../core/domain/webhook-events.ts';
export type { Envelope, WebhookEvent } from '../core/domain/webhook-events.ts';
export { generateWebhookSecret, signatureHeader } from '../core/domain/webhook-signature.ts';
export { channelWakeUpPort } from '../core/ports/channel-wake-up.ts';
export type { ChannelWakeUp } from '../core/ports/channel-wake-up.ts';
export { nextAttemptAfterFailure } from '../core/domain/webhook-retry.ts';
export { createOutboundUrlGuard, parseAllowList } from '../core/services/webhooks/outbound-url-guard.ts';
export type { OutboundUrlGuard } from '../core/services/webhooks/outbound-url-guard.ts';

// ---- What a server-side plugin may know of the service's records: through ports, never its tables ---------------
export { workspaceAuditLogPort } from '../core/ports/workspace-audit-log.ts';
export type { WorkspaceAuditLog, WorkspaceAuditTarget } from '../core/ports/workspace-audit-log.ts';
export { instanceAuditLogPort } from '../core/ports/instance-audit-log.ts';
export type { InstanceAuditLog, SystemAuditEntry } from '../core/ports/instance-audit-log.ts';
export { workspaceDirectoryPort } from '../core/ports/workspace-directory.ts';
export type { EmailRecipient, WorkspaceDirectory } from '../core/ports/workspace-directory.ts';
