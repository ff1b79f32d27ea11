/**
 * Sends pending tasks to free machines of their own workspace. Fair: each pass looks at the oldest few pending tasks
 * of EVERY workspace, round-robin by age rank, so one tenant's queue never hides another's. A machine is free by
 * derivation (a live presence, no active assignment, the tool installed); the claim itself is one transaction that
 * skips a task another replica is claiming and is refused by the database if a machine was just taken.
 */
import { placeholders, sqlOf } from '../sql.ts';
import type { RunContext } from './run-context.ts';
import type { RunLifecycle } from './run-lifecycle.ts';

export interface Dispatcher {
  /** Looks for work now; calls made while a pass runs schedule one more pass. */
  kick(): Promise<void>;
}

/** Pending tasks looked at per workspace and pass: enough to get past a head that waits for a busy machine. */
const perWorkspace = 20;
const perPass = 1_000;

interface Candidate {
  id: string;
  workspace_id: string;
  requested_machine_ids: string[] | string;
  tool: string | null;
}

interface MachineRow {
  id: string;
  workspace_id: string;
  hostname: string;
  tools: string[] | string;
  connected: boolean;
  free: boolean;
}

const listOf = (value: string[] | string): string[] => (typeof value === 'string' ? (JSON.parse(value) as string[]) : value);

export function createDispatcher(ctx: RunContext, lifecycle: RunLifecycle): Dispatcher {
  const sql = sqlOf(ctx.db);
  let running: Promise<void> | null = null;
  let again = false;

  async function pass(): Promise<void> {
    const candidates = await sql.all<Candidate>(
      `select r.id, r.workspace_id, r.requested_machine_ids, te.tool from (
         select t.id, t.workspace_id, t.test_id, t.requested_machine_ids, t.created_at,
                row_number() over (partition by t.workspace_id order by t.created_at, t.id) as rank
         from tasks t where t.status = 'pending') r
       left join tests te on te.id = r.test_id
       where r.rank <= ? order by r.rank, r.created_at, r.id limit ?`,
      [perWorkspace, perPass],
    );
    if (candidates.length === 0) return;
    const workspaces = [...new Set(candidates.map((c) => c.workspace_id))];
    const machines = await sql.all<MachineRow>(
      `select m.id, m.workspace_id, m.hostname, m.tools,
         (m.connection_id is not null and m.lease_until > now()) as connected,
         (m.connection_id is not null and m.lease_until > now() and not exists (
            select 1 from task_assignments a where a.machine_id = m.id and a.status in ('pending', 'running', 'cancelling'))) as free
       from machines m where m.workspace_id in (${placeholders(workspaces)})
       order by m.last_seen_at desc nulls last, m.id`,
      workspaces,
    );
    const byId = new Map(machines.map((m) => [m.id, m]));
    const taken = new Set<string>();
    const isFree = (m: MachineRow) => m.free && !taken.has(m.id);
    const hasTool = (m: MachineRow, tool: string) => listOf(m.tools).includes(tool);

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
        if (!rows.every((row) => isFree(row!))) continue;
        chosen = rows as MachineRow[];
      } else {
        const one = machines.find((m) => m.workspace_id === task.workspace_id && isFree(m) && hasTool(m, task.tool!));
        if (!one) continue;
        chosen = [one];
      }
      const claimed = await lifecycle.claim(
        task.id,
        chosen.map((m) => m.id),
      );
      // Taken or not, these machines are out of this pass: a refused claim means someone else just used them.
      for (const m of chosen) taken.add(m.id);
      void claimed;
    }
  }

  return {
    kick() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await pass();
          } while (again);
        } catch (error) {
          ctx.logger.error('dispatch pass failed', { error: String(error) });
        } finally {
          running = null;
        }
      })();
      return running;
    },
  };
}
