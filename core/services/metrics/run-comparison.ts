/**
 * What a run means next to others: two runs compared (their figures, the relative change of each, and the same per
 * endpoint, matched by name) and a test's trend (its last finished runs, oldest first). Both read the figures the
 * lifecycle stored on each task (merged from the machines' histograms) and the per-endpoint results of
 * run-endpoints.ts; nothing is recomputed or averaged here.
 */
import type { Task } from '../../domain/entities/task.ts';
import { otherEndpoint } from '../../domain/metrics/metric-recorder.ts';
import { finishedRunStatuses } from '../../domain/run-state.ts';
import type { Verdict } from '../../domain/thresholds.ts';
import type { Sql } from '../sql.ts';
import { type EndpointResult, readRunEndpoints } from './run-endpoints.ts';

/** The figures of one run in a comparison. */
export interface ComparedRun {
  id: string;
  public_id: string;
  p50: number;
  p95: number;
  p99: number;
  error_rate: number;
  requests_per_sec: number;
  total_requests: number;
  verdict: Verdict | null;
}

/** The figures whose change a comparison gives. */
export const comparedFigures = ['p50', 'p95', 'p99', 'error_rate', 'requests_per_sec'] as const;
export type ComparedFigure = (typeof comparedFigures)[number];
/** Relative changes, (current - base) / base: 0.12 is 12 % higher, -0.5 half; null where the base is 0. */
export type FigureChanges = Record<ComparedFigure, number | null>;

export interface EndpointComparison {
  name: string;
  /** Null when that run has no figures for the name. */
  base: EndpointResult | null;
  current: EndpointResult | null;
  /** Null unless both runs have the name. */
  changes: FigureChanges | null;
}

export interface RunComparison {
  base: ComparedRun;
  current: ComparedRun;
  changes: FigureChanges;
  endpoints: EndpointComparison[];
}

/** One point of a test's trend: a finished run and its figures. */
export interface TrendPoint {
  id: string;
  public_id: string;
  finished_at: string;
  status: (typeof finishedRunStatuses)[number];
  verdict: Verdict | null;
  p50: number;
  p95: number;
  p99: number;
  error_rate: number;
  requests_per_sec: number;
  total_requests: number;
}

export const defaultTrendRuns = 20;
export const maxTrendRuns = 200;

/** Six decimals: a change is a fraction, and a float's last digits (0.12000000000000001) are noise. */
const round = (value: number) => Math.round(value * 1e6) / 1e6;

/** (current - base) / base, or null when the base is 0 (no change can be said relative to nothing). */
export function relativeChange(base: number, current: number): number | null {
  if (base === 0 || !Number.isFinite(base) || !Number.isFinite(current)) return null;
  return round((current - base) / base);
}

export function changesOf(base: Record<ComparedFigure, number>, current: Record<ComparedFigure, number>): FigureChanges {
  return Object.fromEntries(comparedFigures.map((figure) => [figure, relativeChange(base[figure], current[figure])])) as FigureChanges;
}

/** A task's figures as the API shows them (0 until measured, like GET /tasks/{id}). */
export function comparedRunOf(task: Task): ComparedRun {
  return {
    id: task.id,
    public_id: task.publicId,
    p50: Number(task.p50 ?? 0),
    p95: Number(task.p95 ?? 0),
    p99: Number(task.p99 ?? 0),
    error_rate: Number(task.errorRate ?? 0),
    requests_per_sec: Number(task.requestsPerSec ?? 0),
    total_requests: Number(task.totalRequests ?? 0),
    verdict: (task.verdict ?? null) as Verdict | null,
  };
}

/**
 * Endpoints of both runs matched by name: the current run's in its order (most requests first), then those only the
 * base has, in its order; `(other)` stays last, as in each run's own list.
 */
export function matchEndpoints(base: readonly EndpointResult[], current: readonly EndpointResult[]): EndpointComparison[] {
  const byName = new Map(base.map((endpoint) => [endpoint.name, endpoint]));
  const names = [...current.map((endpoint) => endpoint.name), ...base.map((endpoint) => endpoint.name)];
  const ordered = [...new Set(names.filter((name) => name !== otherEndpoint)), ...(names.includes(otherEndpoint) ? [otherEndpoint] : [])];
  const currentByName = new Map(current.map((endpoint) => [endpoint.name, endpoint]));
  return ordered.map((name) => {
    const one = byName.get(name) ?? null;
    const two = currentByName.get(name) ?? null;
    return { name, base: one, current: two, changes: one && two ? changesOf(one, two) : null };
  });
}

/** Compares `current` with `base` (both tasks of the workspace, already found there). */
export async function compareRuns(sql: Sql, workspaceId: string, base: Task, current: Task): Promise<RunComparison> {
  const [baseEndpoints, currentEndpoints] = await Promise.all([readRunEndpoints(sql, workspaceId, base.id), readRunEndpoints(sql, workspaceId, current.id)]);
  const one = comparedRunOf(base);
  const two = comparedRunOf(current);
  return { base: one, current: two, changes: changesOf(one, two), endpoints: matchEndpoints(baseEndpoints, currentEndpoints) };
}

/** The baseline run's id of a test of the workspace (deleted tests keep theirs), or null. */
export async function baselineOf(sql: Sql, workspaceId: string, testId: string): Promise<string | null> {
  const rows = await sql.all<{ baseline_task_id: string | null }>('select baseline_task_id from tests where id = ? and workspace_id = ?', [testId, workspaceId]);
  return rows[0]?.baseline_task_id ?? null;
}

interface TrendRow {
  id: string;
  public_id: string;
  finished_at: Date | string;
  status: (typeof finishedRunStatuses)[number];
  verdict: string | null;
  p50: number | string | null;
  p95: number | string | null;
  p99: number | string | null;
  error_rate: number | string | null;
  requests_per_sec: number | string | null;
  total_requests: number | string | null;
}

/** The test's last `limit` finished runs (completed or failed, having started), oldest first. */
export async function readTestTrend(sql: Sql, workspaceId: string, testId: string, limit: number): Promise<TrendPoint[]> {
  const rows = await sql.all<TrendRow>(
    `select id, public_id, finished_at, status, verdict, p50, p95, p99, error_rate, requests_per_sec, total_requests from tasks
     where workspace_id = ? and test_id = ? and status in (${finishedRunStatuses.map(() => '?').join(', ')}) and started_at is not null
       and finished_at is not null
     order by finished_at desc, id desc limit ?`,
    [workspaceId, testId, ...finishedRunStatuses, limit],
  );
  return rows.reverse().map((row) => ({
    id: row.id,
    public_id: row.public_id,
    finished_at: new Date(row.finished_at).toISOString(),
    status: row.status,
    verdict: (row.verdict ?? null) as Verdict | null,
    p50: Number(row.p50 ?? 0),
    p95: Number(row.p95 ?? 0),
    p99: Number(row.p99 ?? 0),
    error_rate: Number(row.error_rate ?? 0),
    requests_per_sec: Number(row.requests_per_sec ?? 0),
    total_requests: Number(row.total_requests ?? 0),
  }));
}
