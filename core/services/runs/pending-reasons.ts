/**
 * Why pending tasks wait: reads the facts the dispatcher does not already have (is any machine of the workspace
 * online, does any offer the tool, what a machine said about a tool it lacks), stores the reasons that changed in one
 * statement, and tells the log (when the cause changes) and the streams (on every replica).
 */
import { causeOf, describeWaiting, namedCause, type PoolFacts, poolCause, type WaitingCause } from '../../domain/pending-reason.ts';
import { placeholders, sqlOf } from '../sql.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { RunLifecycle } from './run-lifecycle.ts';
import type { RunSignals } from './run-signals.ts';

/** A pending task and why it waits now; `previous` is the reason stored when it was read. */
export interface Explained {
  id: string;
  workspaceId: string;
  reason: string;
  previous: string | null;
}

/** `workspace id/tool`: one pool of machines. */
export const poolKey = (workspaceId: string, tool: string) => `${workspaceId}/${tool}`;

const listOf = (value: string[] | string): string[] => (typeof value === 'string' ? (JSON.parse(value) as string[]) : value);

const connected = `m.connection_id is not null and m.lease_until > now()`;

/**
 * The facts of the pool `w` (a row with `workspace_id` and `tool`) as columns `offered`, `online`, `problem`: each probe
 * stops at its first match (a busy pool answers at its first busy machine), and the words of a machine that lacks the
 * tool are read only when none offers it. The dispatcher adds it to the query that looks for free machines.
 */
export const poolFactsSelect = (w: string) => `select o.offered,
    case when o.offered then true else exists (select 1 from machines m where m.workspace_id = ${w}.workspace_id and ${connected}) end as online,
    case when o.offered then null else (
      select jsonb_build_object('machine', m.name, 'reason', m.tool_problems ->> ${w}.tool) from machines m
      where m.workspace_id = ${w}.workspace_id and ${connected} and m.tool_problems ->> ${w}.tool is not null limit 1) end as problem
  from (select exists (
    select 1 from machines m where m.workspace_id = ${w}.workspace_id and ${connected} and m.tools @> jsonb_build_array(${w}.tool)) as offered) o`;

/** A row of `poolFactsSelect` as facts (the driver may hand jsonb over as text). */
export const poolFactsOf = (row: { online: boolean; offered: boolean; problem: PoolFacts['problem'] | string | null }): PoolFacts => ({
  online: row.online,
  offered: row.offered,
  problem: typeof row.problem === 'string' ? (JSON.parse(row.problem) as PoolFacts['problem']) : row.problem,
});

interface QueuedRow {
  id: string;
  workspace_id: string;
  requested_machine_ids: string[] | string;
  tool: string | null;
  pending_reason: string | null;
  ahead: number;
}

interface MachineRow {
  id: string;
  workspace_id: string;
  name: string;
  tools: string[] | string;
  connected: boolean;
  free: boolean;
}

export interface PendingReasonsDeps {
  db: Database;
  logger: Logger;
  /** Writes the reasons (only while the task still waits). */
  lifecycle: Pick<RunLifecycle, 'annotatePending'>;
  /** Tells the streams of every replica. */
  signals: Pick<RunSignals, 'reasonsChanged'>;
}

export function createPendingReasons(deps: PendingReasonsDeps) {
  const { lifecycle, signals } = deps;
  const sql = sqlOf(deps.db);

  /** Per pool: is a machine online, does one offer the tool, and else what one said about it. */
  async function poolFacts(pools: readonly { workspaceId: string; tool: string }[]): Promise<Map<string, PoolFacts>> {
    if (pools.length === 0) return new Map();
    const rows = await sql.all<{ workspace_id: string; tool: string; online: boolean; offered: boolean; problem: PoolFacts['problem'] | string | null }>(
      `select w.workspace_id, w.tool, s.* from jsonb_to_recordset(?::jsonb) as w(workspace_id uuid, tool text)
       cross join lateral (${poolFactsSelect('w')}) s`,
      [JSON.stringify(pools.map((p) => ({ workspace_id: p.workspaceId, tool: p.tool })))],
    );
    return new Map(rows.map((row) => [poolKey(row.workspace_id, row.tool), poolFactsOf(row)]));
  }

  /** Stores the reasons that changed (only while the task is still pending), then logs and signals what was written. */
  async function record(explained: readonly Explained[]): Promise<void> {
    const changed = explained.filter((e) => e.reason !== e.previous);
    if (changed.length === 0) return;
    const written = await lifecycle.annotatePending(changed.map((e) => ({ taskId: e.id, reason: e.reason })));
    for (const row of written) {
      // Once when it starts waiting, and when the cause changes; not each time the queue in front of it moves.
      if (causeOf(row.previous) !== causeOf(row.reason)) deps.logger.info('task waiting', { task_id: row.id, workspace_id: row.workspace_id, reason: row.reason });
    }
    signals.reasonsChanged(written.map((row) => ({ taskId: row.id, reason: row.reason })));
  }

  /**
   * Explains pending tasks the dispatch pass did not look at: the ones given (a task just created behind a long
   * queue), or those past rank `afterRank` in the workspaces given (all workspaces when null). Counts tasks ahead in
   * the workspace's queue for the same tool.
   */
  async function explainQueued(scope: { taskIds: readonly string[] } | { workspaceIds: readonly string[] | null; afterRank: number }): Promise<void> {
    const byIds = 'taskIds' in scope;
    if (byIds ? scope.taskIds.length === 0 : scope.workspaceIds?.length === 0) return;
    const where = byIds
      ? `t.workspace_id in (select workspace_id from tasks where id in (${placeholders(scope.taskIds)}))`
      : scope.workspaceIds
        ? `t.workspace_id in (${placeholders(scope.workspaceIds)})`
        : 'true';
    const pick = byIds ? `r.id in (${placeholders(scope.taskIds)})` : 'r.rank > ?';
    const params = byIds ? [...scope.taskIds, ...scope.taskIds] : [...(scope.workspaceIds ?? []), scope.afterRank];
    const rows = await sql.all<QueuedRow>(
      `select r.id, r.workspace_id, r.requested_machine_ids, r.tool, r.pending_reason, r.ahead from (
         select t.id, t.workspace_id, t.requested_machine_ids, te.tool, t.pending_reason,
                row_number() over (partition by t.workspace_id order by t.created_at, t.id) as rank,
                (row_number() over (partition by t.workspace_id, te.tool order by t.created_at, t.id) - 1)::int as ahead
         from tasks t left join tests te on te.id = t.test_id
         where t.status = 'pending' and ${where}) r
       where ${pick}`,
      params,
    );
    if (rows.length === 0) return;
    const requested = [...new Set(rows.flatMap((r) => listOf(r.requested_machine_ids)))];
    const machines = requested.length
      ? await sql.all<MachineRow>(
          `select m.id, m.workspace_id, m.name, m.tools, (${connected}) as connected,
             (${connected} and not exists (select 1 from task_assignments a where a.machine_id = m.id and a.status in ('pending', 'running', 'cancelling'))) as free
           from machines m where m.id in (${placeholders(requested)})`,
          requested,
        )
      : [];
    const byId = new Map(machines.map((m) => [m.id, m]));
    const pools = new Map<string, { workspaceId: string; tool: string }>();
    for (const row of rows) {
      if (row.tool && listOf(row.requested_machine_ids).length === 0) pools.set(poolKey(row.workspace_id, row.tool), { workspaceId: row.workspace_id, tool: row.tool });
    }
    const facts = await poolFacts([...pools.values()]);
    const explained: Explained[] = [];
    for (const row of rows) {
      const cause = causeOfRow(row, byId, facts);
      if (cause) explained.push({ id: row.id, workspaceId: row.workspace_id, reason: describeWaiting(cause), previous: row.pending_reason });
    }
    await record(explained);
  }

  return { record, explainQueued };
}

export type PendingReasons = ReturnType<typeof createPendingReasons>;

/** Null where the dispatcher will fail the task instead (its test or a named machine gone, or a machine without the tool). */
function causeOfRow(row: QueuedRow, machines: Map<string, MachineRow>, facts: Map<string, PoolFacts>): WaitingCause | null {
  const tool = row.tool;
  if (!tool) return null;
  const requested = listOf(row.requested_machine_ids);
  if (requested.length === 0) {
    const pool = facts.get(poolKey(row.workspace_id, tool));
    return pool ? poolCause(pool, tool, row.ahead) : null;
  }
  const named = requested.map((id) => machines.get(id));
  if (named.some((m) => !m || m.workspace_id !== row.workspace_id)) return null;
  if (named.some((m) => m!.connected && !listOf(m!.tools).includes(tool))) return null;
  return namedCause(named as MachineRow[], row.ahead);
}
