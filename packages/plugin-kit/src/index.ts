/**
 * `@loadplane/plugin-kit`: what a plugin imports from Loadplane, built for publishing: definePlugin and the plugin
 * shape, TypeBox for its settings, the capability contracts (a load tool's two halves first), load-config helpers,
 * mergeable latency histograms and metric snapshots, the engine locator, and the ports a plugin may use: its own
 * tables (plain-SQL migrations and the SQL database port), REST endpoints as data, and the run outbox under its own
 * cursor. Core's tables, its ORM and its entities stay out: a plugin gets ports.
 * Capabilities and ports match the kernel's by their `id`, so this bundled copy works with any Loadplane service.
 */

// ---- Plugins, settings, errors ------------------------------------------------------------------------------------
export { definePlugin } from './plugin-definition.ts';
export type { PluginContext, PluginDefinition } from './plugin-definition.ts';
export { Type } from './config-schema.ts';
export type { Static, TSchema } from './config-schema.ts';
export { defineCapability } from '../../../core/kernel/define-capability.ts';
export type { AnyCapabilityToken, CapabilityToken, Cardinality, Resolved } from '../../../core/kernel/define-capability.ts';
export type { HookBus, HookHandler } from '../../../core/kernel/hook-bus.ts';
export type { KernelHooks } from '../../../core/kernel/hooks.ts';
export { silentLogger } from '../../../core/kernel/logger.ts';
export type { Logger } from '../../../core/kernel/logger.ts';
export { coalescingPass } from '../../../core/kernel/coalescing-pass.ts';
export type { CoalescingPass } from '../../../core/kernel/coalescing-pass.ts';
export { badRequest, conflict, DomainError, forbidden, KernelBootError, notFound, unauthorized } from '../../../core/kernel/errors.ts';
export type { ErrorCode } from '../../../core/kernel/errors.ts';

// ---- Load tools: the contract, load configurations, outcomes ------------------------------------------------------
export { loadToolCapability } from '../../../core/capabilities/load-tool.ts';
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
} from '../../../core/capabilities/load-tool.ts';
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
} from '../../../core/domain/load-config.ts';
export { processOutcome } from '../../../core/domain/process-outcome.ts';
export { specTools } from '../../../core/domain/test-rules.ts';

// ---- Metrics: mergeable latency histograms, snapshots, the per-run recorder ---------------------------------------
export { LatencyHistogram, maxTrackableMicros } from '../../../core/domain/metrics/histogram.ts';
export type { EncodedHistogram } from '../../../core/domain/metrics/histogram.ts';
export {
  emptySnapshot,
  endpointNameOf,
  errorMessageOf,
  maxEndpointNames,
  maxErrorGroups,
  MetricRecorder,
  otherEndpoint,
} from '../../../core/domain/metrics/metric-recorder.ts';
export type { FailureDetail } from '../../../core/domain/metrics/metric-recorder.ts';
export { mergeSummaries } from '../../../core/domain/metrics/merge-summaries.ts';
export type { RunFigures } from '../../../core/domain/metrics/merge-summaries.ts';
export { absorbEngineEndpoint, engineEndpointPrefix, readEngineSnapshot } from '../../../core/domain/metrics/engine-snapshot.ts';
export { LatencyCountsReader, latencyCountsPrefix } from '../../../core/domain/metrics/latency-counts.ts';

// ---- Engines and programs on the agent's machine ------------------------------------------------------------------
export { engineAvailability, engineLocatorPort, locateEngine } from '../../../core/ports/engine-locator.ts';
export type { EngineLocator, EngineSource, EngineSpec, LocatedEngine } from '../../../core/ports/engine-locator.ts';
export { provideEngineTool } from '../../../core/capabilities/provide-engine-tool.ts';
export type { EngineChoice, EngineToolOptions } from '../../../core/capabilities/provide-engine-tool.ts';
export { programLookupPort } from '../../../core/ports/program-lookup.ts';
export type { ProgramLookup } from '../../../core/ports/program-lookup.ts';
export { moduleRuntimePort } from '../../../core/ports/module-runtime.ts';
export type { ModuleRuntime } from '../../../core/ports/module-runtime.ts';

// ---- Ports the service gives its plugins (ask `ctx.has` first: agents provide fewer) ------------------------------
export { outboundFetchPort } from '../../../core/ports/outbound-fetch.ts';
export type { OutboundFetch } from '../../../core/ports/outbound-fetch.ts';
export { pinnedFetchPort } from '../../../core/ports/pinned-fetch.ts';
export type { AddressCheck, PinnedFetch, PinnedFetchFactory, PinnedFetchOptions } from '../../../core/ports/pinned-fetch.ts';
export { jobQueuePort } from '../../../core/ports/job-queue.ts';
export type { JobQueue } from '../../../core/ports/job-queue.ts';
export { secretBoxPort } from '../../../core/ports/secret-box.ts';
export type { SecretBox } from '../../../core/ports/secret-box.ts';
export { staticAssetsPort } from '../../../core/ports/static-assets.ts';
export type { StaticAssets } from '../../../core/ports/static-assets.ts';
export { tokenVerifierCapability } from '../../../core/capabilities/token-verifier.ts';
export type { TokenVerifier, VerifiedIdentity } from '../../../core/capabilities/token-verifier.ts';
export { instanceAuditLogPort } from '../../../core/ports/instance-audit-log.ts';
export type { InstanceAuditLog, SystemAuditEntry } from '../../../core/ports/instance-audit-log.ts';

// ---- A plugin's own tables, REST endpoints and run events (the service provides these; agents do not) -------------
export type { SqlMigration } from '../../../core/kernel/sql-migration.ts';
export { sqlDatabasePort } from '../../../core/ports/sql-database.ts';
export type { Sql, SqlDatabase } from '../../../core/ports/sql-database.ts';
export { apiEndpointsCapability } from '../../../core/capabilities/api-endpoints.ts';
export type { ApiEndpoint, ApiEndpointRequest, ApiEndpoints, ApiMethod, EndpointPolicy } from '../../../core/capabilities/api-endpoints.ts';
export type { Caller, CallerIdentity, CallerToken, WorkspaceAccess } from '../../../core/services/caller.ts';
export type { Permission } from '../../../core/domain/permissions.ts';
export type { Scope } from '../../../core/domain/scopes.ts';
export type { Role } from '../../../core/domain/roles.ts';
export { workspaceAuditLogPort } from '../../../core/ports/workspace-audit-log.ts';
export type { WorkspaceAuditLog, WorkspaceAuditTarget } from '../../../core/ports/workspace-audit-log.ts';
export { outboxFeedPort } from '../../../core/ports/outbox-feed.ts';
export type { OutboxConsumeOptions, OutboxFeed, OutboxRecord } from '../../../core/ports/outbox-feed.ts';
export { notificationChannelCapability } from '../../../core/capabilities/notification-channel.ts';
export type { NotificationChannel } from '../../../core/capabilities/notification-channel.ts';
