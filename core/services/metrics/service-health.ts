/**
 * The service's own health in the Prometheus text exposition format (GET /metrics, outside /api/v1): HTTP responses
 * by status class (this replica), runs by status, the plugins' gauges (webhook deliveries by state, say), work waiting
 * in the job queues (core's and the plugins'), and the agents connected to any replica (a live presence lease). Counts
 * span every workspace: this is for the operator.
 */
import type { ServiceGauges } from '../../capabilities/service-gauges.ts';
import type { Database } from '../../ports/database.ts';
import { sqlOf } from '../sql.ts';

export const exposition = 'text/plain; version=0.0.4; charset=utf-8';

interface Family {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  samples: [Record<string, string>, number][];
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

export function renderExposition(families: readonly Family[]): string {
  let text = '';
  for (const family of families) {
    text += `# HELP ${family.name} ${family.help}\n# TYPE ${family.name} ${family.type}\n`;
    for (const [labels, value] of family.samples) {
      const pairs = Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
      text += `${family.name}${pairs.length ? `{${pairs.join(',')}}` : ''} ${Number.isFinite(value) ? value : 'NaN'}\n`;
    }
  }
  return text;
}

const runStatuses = ['pending', 'running', 'completed', 'failed', 'cancelled'];
export function createServiceHealth(deps: { db: Database; version: string; plugins?: readonly ServiceGauges[] }) {
  const sql = sqlOf(deps.db);
  const responses = new Map<string, number>([['1xx', 0], ['2xx', 0], ['3xx', 0], ['4xx', 0], ['5xx', 0]]);

  const counted = async (query: string, keys: readonly string[]) => {
    const rows = await sql.all<{ key: string; n: number | string }>(query);
    const counts = new Map(keys.map((key) => [key, 0]));
    for (const row of rows) counts.set(row.key, Number(row.n));
    return [...counts.entries()];
  };

  return {
    /** Counts one answered HTTP request by its status class. */
    countResponse(status: number) {
      const key = `${Math.min(5, Math.max(1, Math.floor(status / 100)))}xx`;
      responses.set(key, (responses.get(key) ?? 0) + 1);
    },

    async render(): Promise<string> {
      const [runs, [queues], [agents], plugins] = await Promise.all([
        counted('select status as key, count(*) as n from tasks group by status', runStatuses),
        sql.all<{ dispatch: number | string; syncs: number | string }>(
          `select (select count(*) from tasks where status = 'pending') as dispatch,
             (select count(*) from git_repos where sync_status = 'queued' or sync_again) as syncs`,
        ),
        sql.all<{ n: number | string }>('select count(*) as n from machines where lease_until > now()'),
        Promise.all((deps.plugins ?? []).map((plugin) => plugin.read())),
      ]);
      return renderExposition([
        { name: 'loadplane_build_info', type: 'gauge', help: 'the running version', samples: [[{ version: deps.version }, 1]] },
        { name: 'loadplane_http_responses_total', type: 'counter', help: 'HTTP responses of this replica by status class', samples: [...responses].map(([c, n]) => [{ class: c }, n]) },
        { name: 'loadplane_runs', type: 'gauge', help: 'runs (tasks) by status', samples: runs.map(([status, n]) => [{ status }, n]) },
        ...plugins.flatMap(({ gauges }) => gauges.map((family) => ({ ...family, type: 'gauge' as const }))),
        {
          name: 'loadplane_job_queue_depth',
          type: 'gauge',
          help: "work waiting: tasks for a machine (dispatch), git syncs queued, and the plugins' queues (webhook deliveries due)",
          samples: [
            [{ queue: 'dispatch' }, Number(queues!.dispatch)],
            [{ queue: 'git_syncs' }, Number(queues!.syncs)],
            ...plugins.flatMap(({ queues: depths }) => Object.entries(depths).map(([queue, n]): [Record<string, string>, number] => [{ queue }, n])),
          ],
        },
        { name: 'loadplane_agents_connected', type: 'gauge', help: 'agents holding a live presence lease on any replica', samples: [[{}, Number(agents!.n)]] },
      ]);
    },
  };
}

export type ServiceHealth = ReturnType<typeof createServiceHealth>;
