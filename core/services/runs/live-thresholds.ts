/**
 * Abort thresholds checked while a run goes: each time a machine's interval is stored, the run's figures so far (every
 * machine's stored intervals, histograms merged, never averaged) are checked against the task's abort thresholds; one
 * that fails asks the lifecycle to stop the run, which judges again with the task locked before it ends it. A task
 * without abort thresholds costs one lookup, once. Per task at most one check runs at a time on a replica and at most
 * one starts per `minGapMillis`: intervals stored meanwhile are covered by the next check.
 */
import { mergedPercentile } from '../../domain/metrics/histogram.ts';
import type { RunFigures } from '../../domain/metrics/merge-summaries.ts';
import { evaluateThresholds, liveAbortThresholds, liveFailures, storedThresholds, type Threshold } from '../../domain/thresholds.ts';
import { type Sql, sqlOf } from '../sql.ts';
import { endpointFiguresOf } from './endpoint-figures.ts';
import type { Logger } from '../../kernel/logger.ts';
import type { Database } from '../../ports/database.ts';
import type { RunLifecycle } from './run-lifecycle.ts';

export interface LiveFigures {
  figures: RunFigures;
  /** Seconds from the first measured sample to the last. */
  measuredSeconds: number;
}

interface AggregateRow {
  requests: number | string | null;
  errors: number | string | null;
  started_ms: number | string | null;
  ended_ms: number | string | null;
  max_micros: number | string | null;
  buckets: string | null;
}

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The run's figures from its stored interval points, summed and merged in one query (as `mergeSummaries` reads them). */
export async function liveFigures(sql: Sql, taskId: string): Promise<LiveFigures> {
  const [row] = await sql.all<AggregateRow>(
    `select sum(requests)::float8 as requests, sum(errors)::float8 as errors,
       min(extract(epoch from started_at) * 1000) filter (where measured)::float8 as started_ms,
       max(extract(epoch from ended_at) * 1000) filter (where measured)::float8 as ended_ms,
       max((histogram->>'max')::float8) as max_micros,
       string_agg(histogram->>'buckets', ' ') filter (where coalesce(histogram->>'buckets', '') <> '') as buckets
     from (select *, requests > 0 or coalesce((histogram->>'count')::float8, 0) > 0 as measured from task_metric_points where task_id = ?) points`,
    [taskId],
  );
  const requests = Number(row?.requests ?? 0);
  const errors = Number(row?.errors ?? 0);
  const start = row?.started_ms === null || row?.started_ms === undefined ? null : Number(row.started_ms);
  const end = row?.ended_ms === null || row?.ended_ms === undefined ? null : Number(row.ended_ms);
  const seconds = start !== null && end !== null && end > start ? (end - start) / 1000 : 0;
  const buckets = row?.buckets ? row.buckets.split(' ') : [];
  const maxMicros = Number(row?.max_micros ?? 0);
  const percentile = (percent: number) => (buckets.length > 0 ? round(mergedPercentile(buckets, percent, maxMicros)) : 0);
  return {
    figures: {
      p50: percentile(50),
      p95: percentile(95),
      p99: percentile(99),
      errorRate: requests > 0 ? round(Math.min(1, errors / requests), 6) : 0,
      requestsPerSec: seconds > 0 ? round(requests / seconds, 2) : 0,
      totalRequests: requests,
    },
    measuredSeconds: seconds,
  };
}

interface TaskState {
  busy: boolean;
  again: boolean;
  last: number;
  timer: ReturnType<typeof setTimeout> | null;
}

export interface LiveThresholdsDeps {
  db: Database;
  logger: Logger;
  lifecycle: Pick<RunLifecycle, 'stopForThresholds'>;
}

export function createLiveThresholds(deps: LiveThresholdsDeps, options: { minGapMillis?: number } = {}) {
  const { lifecycle } = deps;
  const sql = sqlOf(deps.db);
  const minGap = options.minGapMillis ?? 1000;
  /** Task id -> its abort thresholds (a task's never change); empty for none, or once it ended. */
  const abortOf = new Map<string, Threshold[]>();
  const states = new Map<string, TaskState>();
  let stopped = false;

  async function abortThresholds(taskId: string): Promise<Threshold[]> {
    const known = abortOf.get(taskId);
    if (known) return known;
    const [row] = await sql.all<{ thresholds: unknown; status: string }>('select thresholds, status from tasks where id = ?', [taskId]);
    const found = row && row.status === 'running' ? storedThresholds(row.thresholds).filter((t) => t.abort === true) : [];
    if (abortOf.size > 10_000) abortOf.clear();
    abortOf.set(taskId, found);
    return found;
  }

  async function check(taskId: string): Promise<void> {
    const thresholds = await abortThresholds(taskId);
    if (thresholds.length === 0) return;
    const [row] = await sql.all<{ status: string }>('select status from tasks where id = ?', [taskId]);
    if (row?.status !== 'running') {
      abortOf.set(taskId, []);
      return;
    }
    const live = await liveFigures(sql, taskId);
    const checked = liveAbortThresholds(thresholds, live.measuredSeconds);
    if (checked.length === 0) return;
    const results = evaluateThresholds(checked, { total: live.figures, endpoints: await endpointFiguresOf(sql, taskId) });
    if (liveFailures(results).length === 0) return;
    if (await lifecycle.stopForThresholds(taskId)) {
      abortOf.set(taskId, []);
      deps.logger.info('run stopped by an abort threshold', { taskId });
    }
  }

  function begin(taskId: string, state: TaskState): void {
    state.busy = true;
    state.again = false;
    void check(taskId)
      .catch((error) => {
        if (!stopped) deps.logger.warn('live threshold check failed', { taskId, error: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        state.busy = false;
        state.last = Date.now();
        // Kept while the task may still need checks (its `last` spaces them); gone once it has none to check.
        if (abortOf.get(taskId)?.length === 0) states.delete(taskId);
        else if (state.again) intervalStored(taskId);
      });
  }

  /** A machine stored an interval of the task: check its abort thresholds soon (never blocks the caller). */
  function intervalStored(taskId: string): void {
    if (stopped || abortOf.get(taskId)?.length === 0) return;
    let state = states.get(taskId);
    if (!state && states.size > 10_000) {
      for (const [id, idle] of states) if (!idle.busy && !idle.timer) states.delete(id);
    }
    if (!state) states.set(taskId, (state = { busy: false, again: false, last: 0, timer: null }));
    if (state.busy || state.timer) {
      state.again = true;
      return;
    }
    const wait = state.last + minGap - Date.now();
    if (wait <= 0) return begin(taskId, state);
    const waiting = state;
    waiting.timer = setTimeout(() => {
      waiting.timer = null;
      if (!stopped) begin(taskId, waiting);
    }, wait);
  }

  return {
    intervalStored,
    stop(): void {
      stopped = true;
      for (const state of states.values()) if (state.timer) clearTimeout(state.timer);
      states.clear();
    },
  };
}

export type LiveThresholds = ReturnType<typeof createLiveThresholds>;
