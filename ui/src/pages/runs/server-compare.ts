/** Rows of the server's run comparison (GET /tasks/{id}/compare): the figures with their changes, and the endpoints ranked for a chart. */
import type { ComparedRun, EndpointChange, FigureChanges } from '../../api/types';
import { comparedFigures, relativeChange, verdictOf, type ComparedFigure, type Verdict } from './compare-figures';

export interface FigureRow {
  figure: ComparedFigure;
  base: number;
  current: number;
  /** The server's relative change; null when the base is 0 or the figure has none (total requests). */
  change: number | null;
  verdict: Verdict;
}

/** Every compared figure of the two runs; total requests has no change from the server, so it is worked out here. */
export function figureRows(base: ComparedRun, current: ComparedRun, changes: FigureChanges): FigureRow[] {
  return comparedFigures.map((figure) => {
    const b = base[figure.key];
    const c = current[figure.key];
    const change = figure.key === 'total_requests' ? relativeChange(b, c) : sameIsZero(changes[figure.key], b, c);
    return { figure, base: b, current: c, change, verdict: verdictOf(figure, b, c) };
  });
}

/** The server's change, or 0 when it has none because both figures are equal (0 and 0). */
export function sameIsZero(change: number | null | undefined, base: number | null | undefined, current: number | null | undefined): number | null {
  if (change !== null && change !== undefined) return change;
  return base !== null && base !== undefined && base === current ? 0 : null;
}

export type EndpointMetric = 'p95' | 'requests';

/** The verdict of an endpoint's p95 (lower is better) or requests/s (higher is better); 'same' unless both runs have it. */
export function endpointVerdict(row: EndpointChange, key: 'p95' | 'requests_per_sec'): Verdict {
  if (!row.base || !row.current) return 'same';
  const figure = comparedFigures.find((f) => f.key === key)!;
  return verdictOf(figure, row.base[key], row.current[key]);
}

export interface BarRow {
  name: string;
  base: number | null;
  current: number | null;
}

/** The `limit` endpoints with the largest value of either run for the metric, largest first; `(other)` is left out. */
export function topEndpoints(rows: readonly EndpointChange[], metric: EndpointMetric, limit = 10): BarRow[] {
  const value = (side: EndpointChange['base']) => (side ? side[metric] : null);
  return rows
    .filter((row) => row.name !== '(other)')
    .map((row) => ({ name: row.name, base: value(row.base), current: value(row.current) }))
    .sort((a, b) => Math.max(b.base ?? 0, b.current ?? 0) - Math.max(a.base ?? 0, a.current ?? 0))
    .slice(0, limit);
}

/** A bar's width in percent of the largest value (0 for none). */
export function barWidth(value: number | null, max: number): number {
  if (value === null || max <= 0) return 0;
  return Math.max(0, Math.min(100, (value / max) * 100));
}

/** The absolute change of a figure in its own unit, signed: "+2.1 ms", "−40 req/s"; "" when either side is missing. */
export function formatDelta(base: number | null | undefined, current: number | null | undefined, format: (value: number) => string): string {
  if (base === null || base === undefined || current === null || current === undefined) return '';
  const diff = current - base;
  const sign = diff > 0 ? '+' : diff < 0 ? '−' : '±';
  return `${sign}${format(Math.abs(diff))}`;
}
