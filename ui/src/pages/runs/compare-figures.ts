/** The figures two runs are compared on, which direction is better, and the relative change from the base run. */
import type { Task } from '../../api/types';
import { formatCount, formatMs, formatPercent, formatRate } from '../../components/common/formatters';

export interface ComparedFigure {
  key: 'p50' | 'p95' | 'p99' | 'error_rate' | 'requests_per_sec' | 'total_requests';
  label: string;
  format(value: number): string;
  /** 'lower' when a smaller value is better, 'higher' when a larger one is, null when neither. */
  better: 'lower' | 'higher' | null;
}

export const comparedFigures: ComparedFigure[] = [
  { key: 'p50', label: 'p50 latency', format: formatMs, better: 'lower' },
  { key: 'p95', label: 'p95 latency', format: formatMs, better: 'lower' },
  { key: 'p99', label: 'p99 latency', format: formatMs, better: 'lower' },
  { key: 'error_rate', label: 'Error rate', format: formatPercent, better: 'lower' },
  { key: 'requests_per_sec', label: 'Requests/s', format: formatRate, better: 'higher' },
  { key: 'total_requests', label: 'Requests', format: formatCount, better: null },
];

/** (current − base) / base; null when the base is 0 (no meaningful relative change). */
export function relativeChange(base: number, current: number): number | null {
  if (base === 0) return current === 0 ? 0 : null;
  return (current - base) / base;
}

export type Verdict = 'better' | 'worse' | 'same';

export function verdictOf(figure: ComparedFigure, base: number, current: number): Verdict {
  if (figure.better === null || Math.abs(current - base) <= Math.abs(base) * 0.005) return 'same';
  const up = current > base;
  return (figure.better === 'higher') === up ? 'better' : 'worse';
}

export function figureOf(task: Task, figure: ComparedFigure): number {
  return task[figure.key];
}
