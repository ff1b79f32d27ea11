/** Dashboards of a workspace: named lists of metric panels; create, list, read, replace, delete. Workspace-scoped and audit-logged. */
import { checkDashboardName, checkPanels, maxDashboardsPerWorkspace, type Panel } from '../domain/dashboard-rules.ts';
import { badRequest, notFound } from '../kernel/errors.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';
import { sqlOf, type Sql, transaction } from './sql.ts';
import { isUuid, lockWorkspace } from './workspace-scope.ts';

export interface DashboardRow {
  id: string;
  workspace_id: string;
  name: string;
  panels: Panel[] | string;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface DashboardInput {
  name: string;
  panels?: Panel[];
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function toDashboardView(row: DashboardRow) {
  return {
    id: row.id,
    name: row.name,
    panels: typeof row.panels === 'string' ? (JSON.parse(row.panels) as Panel[]) : row.panels,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

interface Page {
  limit: number;
  after: { createdAt: Date; id: string } | null;
}

export function createDashboardService(deps: { db: Database; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  async function find(sql: Sql, caller: Caller, id: string, lock = false): Promise<DashboardRow> {
    if (!isUuid(id)) throw notFound('dashboard');
    const [row] = await sql.all<DashboardRow>(`select * from dashboards where id = ? and workspace_id = ?${lock ? ' for update' : ''}`, [
      id.toLowerCase(),
      caller.workspace.workspaceId,
    ]);
    if (!row) throw notFound('dashboard');
    return row;
  }

  return {
    async list(caller: Caller, page: Page) {
      const after = page.after;
      const rows = await sqlOf(deps.db).all<DashboardRow>(
        `select * from dashboards where workspace_id = ?${after ? ' and (created_at, id) < (?, ?)' : ''}
         order by created_at desc, id desc limit ?`,
        [caller.workspace.workspaceId, ...(after ? [after.createdAt, after.id] : []), page.limit + 1],
      );
      return rows.map((row) => ({ ...row, createdAt: new Date(row.created_at) }));
    },

    get: (caller: Caller, id: string) => find(sqlOf(deps.db), caller, id),

    async create(caller: Caller, input: DashboardInput): Promise<DashboardRow> {
      const name = checkDashboardName(input.name);
      const panels = checkPanels(input.panels ?? []);
      const workspaceId = caller.workspace.workspaceId;
      return transaction(deps.db, async (tx) => {
        await lockWorkspace(tx.em, workspaceId);
        const [{ count }] = (await tx.all<{ count: number }>('select count(*)::int as count from dashboards where workspace_id = ?', [workspaceId])) as [
          { count: number },
        ];
        if (count >= maxDashboardsPerWorkspace) throw badRequest(`a workspace may hold at most ${maxDashboardsPerWorkspace} dashboards`);
        const at = now();
        const id = crypto.randomUUID();
        const [row] = await tx.all<DashboardRow>(
          `insert into dashboards (id, workspace_id, name, panels, created_at, updated_at) values (?, ?, ?, ?::jsonb, ?, ?) returning *`,
          [id, workspaceId, name, JSON.stringify(panels), at, at],
        );
        recordAudit(tx.em, caller, 'dashboard.created', { type: 'dashboard', id, label: name }, { panels: panels.length });
        return row!;
      });
    },

    /** Replaces name and panels (PUT: the whole dashboard). */
    async replace(caller: Caller, id: string, input: DashboardInput): Promise<DashboardRow> {
      const name = checkDashboardName(input.name);
      const panels = checkPanels(input.panels ?? []);
      return transaction(deps.db, async (tx) => {
        const current = await find(tx, caller, id, true);
        const [row] = await tx.all<DashboardRow>(`update dashboards set name = ?, panels = ?::jsonb, updated_at = ? where id = ? returning *`, [
          name,
          JSON.stringify(panels),
          now(),
          current.id,
        ]);
        recordAudit(tx.em, caller, 'dashboard.updated', { type: 'dashboard', id: current.id, label: name }, { panels: panels.length });
        return row!;
      });
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await transaction(deps.db, async (tx) => {
        const current = await find(tx, caller, id, true);
        await tx.all('delete from dashboards where id = ?', [current.id]);
        recordAudit(tx.em, caller, 'dashboard.deleted', { type: 'dashboard', id: current.id, label: current.name });
      });
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
