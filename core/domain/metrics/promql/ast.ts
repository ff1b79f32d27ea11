/** The PromQL subset Loadplane answers: selectors with label matchers, rate/increase, aggregations, histogram_quantile, arithmetic. */
import type { LabelMatcher } from '../label-matchers.ts';

export const aggregationOps = ['sum', 'avg', 'min', 'max', 'count'] as const;
export type AggregationOp = (typeof aggregationOps)[number];
export const binaryOps = ['+', '-', '*', '/'] as const;
export type BinaryOp = (typeof binaryOps)[number];
/** Functions over a range vector, and histogram_quantile(φ, vector). */
export const rangeFunctions = ['rate', 'increase'] as const;
export type RangeFunction = (typeof rangeFunctions)[number];

export type Expr =
  | { type: 'number'; value: number }
  | { type: 'selector'; matchers: LabelMatcher[]; range: number | null }
  | { type: 'range_call'; func: RangeFunction; arg: Expr & { type: 'selector' } }
  | { type: 'quantile'; phi: Expr; arg: Expr }
  | { type: 'aggregate'; op: AggregationOp; grouping: { without: boolean; labels: string[] } | null; arg: Expr }
  | { type: 'binary'; op: BinaryOp; left: Expr; right: Expr };

/** Every selector in an expression (what the evaluator must load). */
export function selectorsOf(expr: Expr): (Expr & { type: 'selector' })[] {
  switch (expr.type) {
    case 'number':
      return [];
    case 'selector':
      return [expr];
    case 'range_call':
      return [expr.arg];
    case 'quantile':
      return [...selectorsOf(expr.phi), ...selectorsOf(expr.arg)];
    case 'aggregate':
      return selectorsOf(expr.arg);
    case 'binary':
      return [...selectorsOf(expr.left), ...selectorsOf(expr.right)];
  }
}
