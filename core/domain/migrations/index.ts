/** The core's migrations in the order they apply; never edit one that has shipped, add the next. */
import { Migration0001Foundation } from './0001-foundation.ts';
import { Migration0002Access } from './0002-access.ts';
import { Migration0003Runs } from './0003-runs.ts';
import { Migration0004RunLifecycle } from './0004-run-lifecycle.ts';
import { Migration0005ServiceSecrets } from './0005-service-secrets.ts';
import { Migration0006MemberInvitations } from './0006-member-invitations.ts';
import { Migration0007LogStorage } from './0007-log-storage.ts';
import { Migration0008Webhooks } from './0008-webhooks.ts';
import { Migration0009MachineToolVersions } from './0009-machine-tool-versions.ts';
import { Migration0010WorkspaceData } from './0010-workspace-data.ts';
import { Migration0011MetricQueries } from './0011-metric-queries.ts';
import { Migration0012OtelPoints } from './0012-otel-points.ts';
import { Migration0013PendingReasons } from './0013-pending-reasons.ts';
import { Migration0014MachineAgentKeys } from './0014-machine-agent-keys.ts';
import { Migration0015UsageAndMachineRegion } from './0015-usage-and-machine-region.ts';
import { Migration0016McpServers } from './0016-mcp-servers.ts';
import { Migration0017Thresholds } from './0017-thresholds.ts';
import { Migration0018EndpointResults } from './0018-endpoint-results.ts';
import { Migration0019TestBaselines } from './0019-test-baselines.ts';
import { Migration0020Schedules } from './0020-schedules.ts';
import { Migration0021EndpointTimeline } from './0021-endpoint-timeline.ts';
import { Migration0022OutboxCursors } from './0022-outbox-cursors.ts';
import { Migration0023EndpointMinutesUncompressed } from './0023-endpoint-minutes-uncompressed.ts';
import { Migration0024TaskMetricChanges } from './0024-task-metric-changes.ts';

export const coreMigrations = [
  Migration0001Foundation,
  Migration0002Access,
  Migration0003Runs,
  Migration0004RunLifecycle,
  Migration0005ServiceSecrets,
  Migration0006MemberInvitations,
  Migration0007LogStorage,
  Migration0008Webhooks,
  Migration0009MachineToolVersions,
  Migration0010WorkspaceData,
  Migration0011MetricQueries,
  Migration0012OtelPoints,
  Migration0013PendingReasons,
  Migration0014MachineAgentKeys,
  Migration0015UsageAndMachineRegion,
  Migration0016McpServers,
  Migration0017Thresholds,
  Migration0018EndpointResults,
  Migration0019TestBaselines,
  Migration0020Schedules,
  Migration0021EndpointTimeline,
  Migration0022OutboxCursors,
  Migration0023EndpointMinutesUncompressed,
  Migration0024TaskMetricChanges,
];
