/**
 * What the http tool's engine runs (`plan.json` in the run's work directory): the steps, resolved and checked on the
 * agent (absolute URLs, merged headers, bodies as text), and this machine's share of the load as a VU schedule. Types
 * only, shared by the plugin that writes the plan and the engine that reads it.
 */

export interface PlannedStep {
  /** The endpoint name in the results: the step's `name`, or `METHOD path`. */
  name: string;
  method: string;
  url: string;
  /** Header names in lower case, the defaults' under the step's own. */
  headers: Record<string, string>;
  body: string | null;
  /** The statuses that pass; null: any status below 400. */
  expectStatus: number[] | null;
  /** Text the body must contain; null: the body is drained unread. */
  bodyContains: string | null;
}

/** A stretch of the run in which the VUs ramp linearly from `from` to `to` (equal: constant). */
export interface LoadSegment {
  durationMs: number;
  from: number;
  to: number;
}

export type PlannedLoad =
  /** Each of `vus` VUs runs the steps `iterations` times, then the run ends (a test started without a load config). */
  | { kind: 'iterations'; vus: number; iterations: number }
  /** VUs follow the segments one after the other; each runs the steps again and again until its VU is no longer due. */
  | { kind: 'segments'; segments: LoadSegment[] };

export interface EnginePlan {
  steps: PlannedStep[];
  load: PlannedLoad;
  /** A request without a complete answer after this long is a network error `timeout`. */
  timeoutMs: number;
  /** How often a snapshot of the metrics is printed. */
  metricsIntervalMs: number;
  /** How often a progress line is printed for the live log. */
  progressIntervalMs: number;
  /** The start line's description of the load, e.g. `5 VUs for 30s (machine 1 of 2)`. */
  description: string;
}
