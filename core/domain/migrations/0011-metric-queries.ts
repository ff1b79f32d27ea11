/**
 * Metric queries and retention: run time series are read by workspace and time (the catalog, /metrics/query, the
 * Prometheus API) and pruned by age, so both need an index on (workspace, end of interval).
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0011MetricQueries extends Migration {
  override name = 'core-0011-metric-queries';

  override up(): void {
    this.addSql(`create index task_metric_points_workspace_time on task_metric_points (workspace_id, ended_at)`);
    // The retention job deletes by age across workspaces.
    this.addSql(`create index task_metric_points_ended on task_metric_points (ended_at)`);
  }
}
