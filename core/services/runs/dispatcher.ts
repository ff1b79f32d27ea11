/**
 * Sends pending tasks to free machines of their own workspace. Fair: each pass looks at the oldest few pending tasks
 * of EVERY workspace, round-robin by age rank, so one tenant's queue never hides another's. A machine is free by
 * derivation (a live presence, no active assignment, the tool installed); the claim itself is one transaction that
 * skips a task another replica is claiming and is refused by the database if a machine was just taken. The tasks a pass
 * looks at and cannot place get their reason (pending-reasons.ts) from what it read; the queue behind them on the sweep.
 */
import { coalescingPass } from '../../kernel/coalescing-pass.ts';
import { describeWaiting, namedCause, type PoolFacts, poolCause, type WaitingCause } from '../../domain/pending-reason.ts';
import { placeholders, sqlOf } from '../sql.ts';
import { type Explained, type PendingReasons, poolFactsOf, poolFactsSelect } from './pending-reasons.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { RunLifecycle } from './run-lifecycle.ts';

export interface Dispatcher {
  /**
   * Looks for work now; calls made while a pass runs schedule one more pass. `wholeQueue` (the sweep): also explain
   * the tasks queued behind the ones a pass looks at.
   */
  kick(options?: { wholeQueue?: boolean }): Promise<void>;
  /** Explains these pending tasks now, wherever they are in their queue (a task just created behind a long one). */
  explain(taskIds: readonly string[]): Promise<void>;
}

/** Pending tasks looked at per workspace and pass: enough to get past a head that waits for a busy machine. */
const perWorkspace = 20;
const perPass = 1_000;

interface Candidate {
  id: string;
  workspace_id: string;
  requested_machine_ids: string[] | string;
  tool: string | null;
  pending_reason: string | null;
}

interface MachineRow {
  id: string;
  workspace_id: string;
  hostname: string;
  name: string;
  tools: string[] | string;
  connected: boolean;
  free: boolean;
  /** Set on a free machine fetched for tasks without a machine list: `workspace id/tool` (see needKey). */
  need: string | null;
}

const listOf = (value: string[] | string): string[] => (typeof value === 'string' ? (JSON.parse(value) as string[]) : value);

const needKey = (workspaceId: string, tool: string | null) => `${workspaceId}/${tool}`;
const machineColumns = `m.id, m.workspace_id, m.hostname, m.name, m.tools,
  (m.connection_id is not null and m.lease_until > now()) as connected,
  (m.connection_id is not null and m.lease_until > now() and not exists (
     select 1 from task_assignments a where a.machine_id = m.id and a.status in ('pending', 'running', 'cancelling'))) as free`;

export interface DispatcherDeps {
  db: Database;
  logger: Logger;
  lifecycle: Pick<RunLifecycle, 'claim' | 'failPending'>;
  reasons: Pick<PendingReasons, 'record' | 'explainQueued'>;
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { lifecycle, reasons } = deps;
  const sql = sqlOf(deps.db);

  /**
   * Only the machines this pass can use: the ones tasks name, and for the other tasks as many free machines with the
   * tool as there are such tasks per workspace. Reading every machine of a 10,000-agent workspace cost 28 ms a pass.
   */
  async function machinesFor(candidates: Candidate[]): Promise<{ machines: MachineRow[]; wanted: Map<string, number>; facts: Map<string, PoolFacts> }> {
    const requested = [...new Set(candidates.flatMap((c) => listOf(c.requested_machine_ids)))];
    const needs = new Map<string, { workspace_id: string; tool: string; n: number }>();
    for (const c of candidates) {
      if (!c.tool || listOf(c.requested_machine_ids).length > 0) continue;
      const need = needs.get(needKey(c.workspace_id, c.tool)) ?? { workspace_id: c.workspace_id, tool: c.tool, n: 0 };
      need.n += 1;
      needs.set(needKey(c.workspace_id, c.tool), need);
    }
    const named = requested.length
      ? await sql.all<MachineRow>(`select ${machineColumns}, null as need from machines m where m.id in (${placeholders(requested)})`, requested)
      : [];
    // A pool without a free machine answers one row of its facts instead (why its tasks wait), in the same round trip.
    const rows = needs.size
      ? await sql.all<MachineRow & { online: boolean | null; offered: boolean | null; problem: PoolFacts['problem'] | string | null }>(
          `select f.*, w.workspace_id::text || '/' || w.tool as need, s.* from jsonb_to_recordset(?::jsonb) as w(workspace_id uuid, tool text, n int)
           left join lateral (
             select ${machineColumns} from machines m
             where m.workspace_id = w.workspace_id and m.connection_id is not null and m.lease_until > now()
               and m.tools @> jsonb_build_array(w.tool)
               and not exists (select 1 from task_assignments a where a.machine_id = m.id and a.status in ('pending', 'running', 'cancelling'))
             order by m.last_seen_at desc nulls last, m.id limit w.n) f on true
           left join lateral (${poolFactsSelect('w')} where f.id is null) s on true`,
          [JSON.stringify([...needs.values()])],
        )
      : [];
    const facts = new Map(rows.filter((row) => row.id === null).map((row) => [row.need!, poolFactsOf({ online: !!row.online, offered: !!row.offered, problem: row.problem })]));
    const free = rows.filter((row) => row.id !== null);
    return { machines: [...named, ...free], wanted: new Map([...needs].map(([key, need]) => [key, need.n])), facts };
  }

  let wholeQueueWanted = false;

  async function pass(): Promise<void> {
    const wholeQueue = wholeQueueWanted;
    wholeQueueWanted = false;
    const candidates = await sql.all<Candidate>(
      `select r.id, r.workspace_id, r.requested_machine_ids, te.tool, r.pending_reason from (
         select t.id, t.workspace_id, t.test_id, t.requested_machine_ids, t.created_at, t.pending_reason,
                row_number() over (partition by t.workspace_id order by t.created_at, t.id) as rank
         from tasks t where t.status = 'pending') r
       left join tests te on te.id = r.test_id
       where r.rank <= ? order by r.rank, r.created_at, r.id limit ?`,
      [perWorkspace, perPass],
    );
    if (candidates.length === 0) return;
    await place(candidates);
    if (!wholeQueue) return;
    // Only a workspace whose window is full has tasks behind it (any workspace, when the pass itself was cut short).
    const seen = new Map<string, number>();
    for (const c of candidates) seen.set(c.workspace_id, (seen.get(c.workspace_id) ?? 0) + 1);
    const full = [...seen].filter(([, n]) => n >= perWorkspace).map(([id]) => id);
    if (candidates.length >= perPass) await reasons.explainQueued({ workspaceIds: null, afterRank: perWorkspace });
    else if (full.length > 0) await reasons.explainQueued({ workspaceIds: full, afterRank: perWorkspace });
  }

  /** One round over the candidates (oldest first per workspace): claims what it can, explains what waits. */
  async function place(candidates: Candidate[]): Promise<void> {
    const { machines, wanted, facts } = await machinesFor(candidates);
    const byId = new Map(machines.map((m) => [m.id, m]));
    const freeByNeed = new Map<string, MachineRow[]>();
    for (const m of machines) {
      if (!m.need) continue;
      const list = freeByNeed.get(m.need) ?? [];
      list.push(m);
      freeByNeed.set(m.need, list);
    }
    const taken = new Set<string>();
    const isFree = (m: MachineRow) => m.free && !taken.has(m.id);
    const hasTool = (m: MachineRow, tool: string) => listOf(m.tools).includes(tool);
    // Why the tasks that stay pending wait. `ahead`: tasks of the workspace for the same tool that this pass saw
    // before this one and left pending (a window holds every older task of its workspace, so that is all of them).
    const queued = new Map<string, number>();
    const waited = (task: Candidate) => queued.set(needKey(task.workspace_id, task.tool), aheadOf(task) + 1);
    const aheadOf = (task: Candidate) => queued.get(needKey(task.workspace_id, task.tool)) ?? 0;
    const explained: Explained[] = [];
    const explain = (task: Candidate, cause: WaitingCause | null) => {
      if (cause) explained.push({ id: task.id, workspaceId: task.workspace_id, reason: describeWaiting(cause), previous: task.pending_reason });
    };
    /** Pool tasks with no machine this pass could give them: their cause needs the pool's facts (read once, below). */
    const unexplained: { task: Candidate; ahead: number }[] = [];

    for (const task of candidates) {
      if (!task.tool) {
        await lifecycle.failPending(task.id, 'the test of this task no longer exists');
        continue;
      }
      const requested = listOf(task.requested_machine_ids);
      let chosen: MachineRow[];
      if (requested.length > 0) {
        const rows = requested.map((id) => byId.get(id));
        if (rows.some((row) => !row || row.workspace_id !== task.workspace_id)) {
          await lifecycle.failPending(task.id, 'a requested machine was deleted before the task could start');
          continue;
        }
        const lacking = rows.find((row) => row!.connected && !hasTool(row!, task.tool!));
        if (lacking) {
          await lifecycle.failPending(task.id, `machine ${lacking.hostname} cannot run ${task.tool} (its agent has no ${task.tool} installed)`);
          continue;
        }
        if (!rows.every((row) => isFree(row!))) {
          explain(task, namedCause((rows as MachineRow[]).map((row) => ({ name: row.name, connected: row.connected, free: isFree(row) })), aheadOf(task)));
          waited(task);
          continue;
        }
        chosen = rows as MachineRow[];
      } else {
        const key = needKey(task.workspace_id, task.tool);
        const pool = freeByNeed.get(key) ?? [];
        const one = pool.find(isFree);
        if (!one) {
          // A full pool used up by other tasks of this pass (a machine serves several tools): more may be free, and
          // the next round says whether this one waits.
          if (pool.length >= (wanted.get(key) ?? 0)) dispatch.again();
          // Free machines with the tool exist, all taken by tasks ahead; or none is free, and the pool says why.
          else if (pool.length > 0) explain(task, poolCause({ online: true, offered: true, problem: null }, task.tool, aheadOf(task)));
          else unexplained.push({ task, ahead: aheadOf(task) });
          waited(task);
          continue;
        }
        chosen = [one];
      }
      const claimed = await lifecycle.claim(
        task.id,
        chosen.map((m) => m.id),
      );
      // Taken or not, these machines are out of this pass: a refused claim means someone else just used them.
      for (const m of chosen) taken.add(m.id);
      // Refused: still pending (most likely), and ahead of the ones after it; what it waits for, the next pass says.
      if (!claimed) waited(task);
    }

    for (const { task, ahead } of unexplained) {
      const pool = facts.get(needKey(task.workspace_id, task.tool));
      if (pool) explain(task, poolCause(pool, task.tool!, ahead));
    }
    await reasons.record(explained);
  }

  const dispatch = coalescingPass(pass, { onError: (error) => deps.logger.error('dispatch pass failed', { error: String(error) }) });

  return {
    kick(options) {
      if (options?.wholeQueue) wholeQueueWanted = true;
      return dispatch();
    },
    explain: (taskIds) => reasons.explainQueued({ taskIds }),
  };
}
