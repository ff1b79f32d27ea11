/**
 * The load-tool capability: both halves of a tool. The control plane validates scripts and maps load configs;
 * the agent builds the command and turns the tool's output into log lines, interval metrics and a final summary.
 */
import { defineCapability } from '../kernel/define-capability.ts';
import type { EncodedHistogram } from '../domain/metrics/histogram.ts';

/** A load configuration: constant VUs for a duration, or ramping stages. Durations like `30s`, `5m`, `1h30m`. */
export interface LoadConfig {
  vus?: number;
  duration?: string;
  stages?: { duration: string; target: number }[];
}

/** What an agent receives to run its share of a task. */
export interface Assignment {
  assignmentId: string;
  taskId: string;
  testId: string;
  tool: string;
  script: string;
  /** Null: the script's own options decide. */
  config: LoadConfig | null;
  /** This machine's position among the task's machines (0-based) and their count, for splitting load. */
  machineIndex: number;
  machineCount: number;
  /**
   * The workspace's environment variables (secrets included). The agent lays them under the tool's process
   * environment (its own PATH/HOME/LANG and the command's variables win) and masks their values in log lines; a
   * plugin's command() need not pass them on.
   */
  env?: Record<string, string>;
}

/** How to start the tool: the argv, extra environment, files written into a fresh working directory first. */
export interface ToolCommand {
  argv: string[];
  env?: Record<string, string>;
  files?: Record<string, string>;
  /** A file (relative to the working directory) the tool appends samples to; the agent tails it line by line. */
  sampleFile?: string;
}

/** One endpoint's share of an interval: its name (a step, a request name, a URL), its counters and latency histogram. */
export interface EndpointSnapshot {
  name: string;
  requests: number;
  errors: number;
  histogram: EncodedHistogram;
}

/** How a request failed: an answer with a bad status, no answer (refused, reset, timeout), a failed check, a script error. */
export type ErrorKind = 'status' | 'network' | 'check' | 'script';

/** Failures of one endpoint, kind and code in an interval, with one message as a sample. */
export interface ErrorGroup {
  endpoint: string;
  kind: ErrorKind;
  /** `500`, `ECONNREFUSED`, `timeout`, a check's name. */
  code: string;
  /** One message of the group, bounded in length (MetricRecorder cuts it). */
  message: string;
  count: number;
}

/** Metrics of one interval (or of the whole run): latency in ms as a histogram, plus counters. */
export interface MetricSnapshot {
  histogram: EncodedHistogram;
  requests: number;
  errors: number;
  /** Epoch milliseconds of the interval's first and last sample (or the run's start and end). */
  startedAt: number;
  endedAt: number;
  /**
   * Interval snapshots only, optional: the same interval per endpoint (at most 200 names a run, the rest folded into
   * `(other)`), for tools that know their requests' names. Their counts are part of `requests` and `errors`.
   */
  endpoints?: EndpointSnapshot[];
  /** Interval snapshots only, optional: its failures grouped by endpoint, kind and code (bounded in number). */
  errorGroups?: ErrorGroup[];
}

export interface RunOutcome {
  status: 'completed' | 'failed';
  /** Why it failed, in one line (threshold crossed, script error, exit code N). */
  reason?: string;
}

/** One run's output interpreter, created per assignment on the agent. */
export interface ToolOutputParser {
  /**
   * One line of stdout or stderr. Returns the text to log (the line itself, a cleaned-up version),
   * or null to keep it out of the log (a metrics line).
   */
  onOutput(source: 'out' | 'err', line: string): string | null;
  /** One line of the sample file, if the command declared one. */
  onSample?(line: string): void;
  /** Metrics since the previous call, or null if nothing happened. */
  takeInterval(now: number): MetricSnapshot | null;
  /** The whole run's metrics once the process exited. */
  summary(): MetricSnapshot;
  outcome(exitCode: number | null, signal: string | null): RunOutcome;
}

export interface LoadTool {
  /** The tool id of the test definition: `k6`, `custom`, ... */
  readonly tool: string;
  /**
   * Whether a run executes code its test's author wrote (default true: a custom script, k6's JavaScript with `open()`).
   * Only a tool that declares `false` (its engine only interprets data, as the `http` tool's native steps) is offered
   * by an agent that cannot isolate runs; where there is a sandbox, it runs inside it like any other.
   */
  readonly runsAuthorCode?: boolean;
  /** Control plane: null when the script is acceptable, else a message for a 400. */
  validateScript(script: string): string | null;
  /** Agent: whether the tool can run on this machine (binary on PATH), with a reason when not. */
  available(): Promise<{ ok: true; version?: string } | { ok: false; reason: string }>;
  /** Agent: the command for an assignment. */
  command(assignment: Assignment): ToolCommand;
  /** Agent: a fresh parser for one run. */
  createParser(assignment: Assignment): ToolOutputParser;
}

export const loadToolCapability = defineCapability<LoadTool>({
  id: 'core.loadTool',
  cardinality: 'many',
  key: (tool) => tool.tool,
});
