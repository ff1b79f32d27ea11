/**
 * The safety net that makes "nothing stuck" true without timers in memory: every few moments it renews this replica's
 * agent presences, resends what its agents have not acknowledged, ends assignments whose agent stayed away past the
 * grace period, settles running tasks with nothing left running, fails pending tasks past their deadline, prunes
 * relayed lines, re-reads followed streams, and looks for work. Every step is a conditional transition, so several
 * replicas sweeping at once change each thing once. At boot it is the restart reconciliation.
 */
import { activeAssignmentStatuses } from '../../domain/run-state.ts';
import { placeholders, sqlOf } from '../sql.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { AgentCommands } from './agent-commands.ts';
import type { AgentConnections } from './agent-connections.ts';
import type { AgentPresence } from './agent-presence.ts';
import type { Dispatcher } from './dispatcher.ts';
import type { LogStore } from './log-store.ts';
import type { RunLifecycle } from './run-lifecycle.ts';
import type { RunSettings } from './run-settings.ts';
import type { StreamHub } from './stream-hub.ts';

const resendAfterSeconds = 5;
const relayKeepSeconds = 600;

export interface RunSweeperDeps {
  db: Database;
  logger: Logger;
  settings: Pick<RunSettings, 'agentGraceMillis' | 'heartbeatSeconds' | 'sweepMillis'>;
  logs: Pick<LogStore, 'pruneRelay'>;
  streams: Pick<StreamHub, 'check'>;
  lifecycle: Pick<RunLifecycle, 'agentLost' | 'settleTask' | 'failPending'>;
  commands: Pick<AgentCommands, 'resendUnacknowledged'>;
  /** The sockets this replica holds, whose presences it renews. */
  connections: Pick<AgentConnections, 'connectionIds'>;
  presence: Pick<AgentPresence, 'renew'>;
  dispatcher: Pick<Dispatcher, 'kick'>;
  /** false (WORKERS=false): this replica does not run the jobs that act for every replica. */
  workers: boolean;
}

export function createRunSweeper(deps: RunSweeperDeps) {
  const sql = sqlOf(deps.db);
  let timer: ReturnType<typeof setInterval> | null = null;
  let sweeping: Promise<void> | null = null;
  let lastRenewal = 0;
  let lastPrune = 0;

  /** The jobs any one replica may do for all (skipped with WORKERS=false). */
  async function settleEverything() {
    const graceSeconds = deps.settings.agentGraceMillis / 1000;
    const lost = await sql.all<{ id: string; hostname: string | null }>(
      `select a.id, m.hostname from task_assignments a left join machines m on m.id = a.machine_id
       where a.status in (${placeholders(activeAssignmentStatuses)})
         and (m.id is null or m.connection_id is null or m.lease_until < now())
         and (m.lease_until is null or m.lease_until < now() - make_interval(secs => ?))`,
      [...activeAssignmentStatuses, graceSeconds],
    );
    for (const row of lost) {
      await deps.lifecycle.agentLost(
        row.id,
        `the agent of ${row.hostname ? `machine ${row.hostname}` : 'this machine'} disconnected and did not come back within ${Math.round(graceSeconds)} s`,
      );
    }
    const orphans = await sql.all<{ id: string }>(
      `select t.id from tasks t where t.status = 'running' and not exists (
         select 1 from task_assignments a where a.task_id = t.id and a.status in (${placeholders(activeAssignmentStatuses)}))`,
      [...activeAssignmentStatuses],
    );
    for (const row of orphans) await deps.lifecycle.settleTask(row.id);
    const expired = await sql.all<{ id: string; waited: number; pending_reason: string | null }>(
      `select id, extract(epoch from (now() - created_at))::int as waited, pending_reason from tasks where status = 'pending' and pending_until < now()`,
    );
    for (const row of expired) {
      // The error keeps why it waited: the reason itself ends with the task's transition.
      const why = row.pending_reason ? `: ${row.pending_reason}` : '';
      await deps.lifecycle.failPending(row.id, `no eligible machine became free within ${row.waited} s (pending timeout)${why}`);
    }
    if (Date.now() - lastPrune > 60_000) {
      lastPrune = Date.now();
      await deps.logs.pruneRelay(relayKeepSeconds);
    }
  }

  async function sweep() {
    // Presence first: a replica that stops renewing is, for everyone else, a replica that died.
    if (Date.now() - lastRenewal >= (deps.settings.heartbeatSeconds * 1000) / 2) {
      lastRenewal = Date.now();
      await deps.presence.renew(deps.connections.connectionIds());
    }
    await deps.commands.resendUnacknowledged(resendAfterSeconds);
    if (deps.workers) await settleEverything();
    await deps.streams.check();
    // Also explains the tasks queued behind the ones each pass looks at (their count ahead moves with the queue).
    await deps.dispatcher.kick({ wholeQueue: true });
  }

  const once = () =>
    (sweeping ??= sweep()
      .catch((error) => deps.logger.error('run sweep failed', { error: String(error) }))
      .finally(() => (sweeping = null)));

  return {
    once,
    start() {
      timer ??= setInterval(() => void once(), deps.settings.sweepMillis);
      (timer as { unref?: () => void }).unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await sweeping;
    },
  };
}
