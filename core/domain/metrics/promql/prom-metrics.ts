/**
 * The Prometheus view of a run's time series: two counters and one native histogram per run and machine, labelled
 * run, machine and test. Counters are cumulative from the run's start (the stored points are per-interval deltas).
 */
export const promMetrics = {
  loadplane_requests_total: { kind: 'counter', help: 'requests completed by the run on this machine' },
  loadplane_errors_total: { kind: 'counter', help: 'failed requests of the run on this machine' },
  loadplane_request_duration_seconds: { kind: 'histogram', help: 'request latency (native histogram): use histogram_quantile(φ, rate(...[w]))' },
} as const;
export type PromMetricName = keyof typeof promMetrics;
export const promMetricNames = Object.keys(promMetrics) as PromMetricName[];

/** How long an instant selector looks back for the latest point (Prometheus' default). */
export const lookbackSeconds = 300;
