/** The REST answers `loadplane run` reads (docs/runs.md, docs/metrics.md), as far as it reads them. */

export interface ThresholdResultView {
  metric: string;
  endpoint?: string;
  op: string;
  value: number;
  abort?: boolean;
  /** The figure it was checked on; null when there was none. */
  actual: number | null;
  ok: boolean;
}

export interface TaskRecord {
  id: string;
  public_id: string;
  test_id: string;
  status: string;
  p50: number;
  p95: number;
  p99: number;
  error_rate: number;
  requests_per_sec: number;
  total_requests: number;
  error: string | null;
  verdict: 'passed' | 'failed' | null;
  threshold_results: ThresholdResultView[];
  pending_reason: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface EndpointFigures {
  name: string;
  requests: number;
  errors: number;
  error_rate: number;
  requests_per_sec: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export const comparedFigures = ['p50', 'p95', 'p99', 'error_rate', 'requests_per_sec'] as const;
export type ComparedFigure = (typeof comparedFigures)[number];
/** Relative changes (0.12 = 12 % higher); null where the base figure is 0 or missing. */
export type Changes = Partial<Record<ComparedFigure, number | null>>;
export type Figures = Partial<Record<ComparedFigure, number | null>> & { id?: string; public_id?: string };

export interface Comparison {
  base: Figures;
  current: Figures;
  changes: Changes;
  endpoints?: { name: string; base?: Figures | null; current?: Figures | null; changes?: Changes | null }[];
}

export interface TestRecord {
  id: string;
  name: string;
  tool: string;
}

export const terminalStatuses = new Set(['completed', 'failed', 'cancelled']);
