/**
 * Runs one assignment on the agent: work directory, process, output through the tool's parser, interval metrics,
 * progress lines in a quiet log, cancellation (the whole process group: SIGTERM, then SIGKILL) and clean-up. Expected
 * failures are values, never throws.
 */
import type { Assignment, LoadTool, MetricSnapshot, RunOutcome, ToolCommand, ToolOutputParser } from '../capabilities/load-tool.ts';
import { droppedToolEnv, toolEnvOf } from '../domain/env-var-rules.ts';
import { emptySnapshot } from '../domain/metrics/metric-recorder.ts';
import { createMasker } from '../domain/secret-masking.ts';
import { type Clock, systemClock } from '../ports/clock.ts';
import type { ProcessRunner, RunningProcess } from '../ports/process-runner.ts';
import { type ProgressReporter, startProgressReporter } from './progress-reporter.ts';

export interface LogLine {
  source: 'out' | 'err';
  text: string;
  /** Epoch milliseconds when the agent read the line. */
  ts: number;
}

export interface RunAssignmentOptions {
  tool: LoadTool;
  assignment: Assignment;
  runner: ProcessRunner;
  /** Aborting cancels the run: the outcome is then failed with reason `cancelled`. */
  signal?: AbortSignal;
  /**
   * The environment every tool gets (PATH, HOME, LANG); the command's own env is laid over it. The workspace's
   * variables (assignment.env) lie under both: they add to a tool's environment but never replace what the agent or
   * the tool plugin sets.
   */
  baseEnv?: Record<string, string>;
  metricsIntervalMs?: number;
  /**
   * When the tool printed nothing the log shows for this long, the agent writes a `[loadplane] progress: ...` line
   * (default 2000): every run's live log shows life at least this often, whatever its tool.
   */
  progressQuietMs?: number;
  /** Between SIGTERM and SIGKILL on cancel: k6 uses it to stop VUs and write its summary. */
  killGraceMs?: number;
  onStarted?(pid: number): void;
  onLog?(line: LogLine): void;
  onMetrics?(snapshot: MetricSnapshot): void;
  /** Time and timers (default the host's): tests drive interval metrics and progress lines with a manual clock. */
  clock?: Clock;
}

export interface AssignmentResult {
  outcome: RunOutcome;
  summary: MetricSnapshot;
  exitCode: number | null;
  /** Set when the tool never started (not installed, bad command, spawn failure): the reason, in one line. */
  startError?: string;
}

export const cancelledReason = 'cancelled';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Files the command runs directly (`./name` as argv[0]) must be executable; the argv then carries the absolute path,
 * so the lookup does not depend on how the runtime resolves a relative program against `cwd`.
 */
function directProgram(argv: string[], files: Record<string, string>): string | null {
  const first = argv[0] ?? '';
  if (!first.startsWith('./')) return null;
  const name = first.slice(2);
  return name in files ? name : null;
}

/**
 * The values to mask: every variable the assignment carried, those left out of the tool's environment too (the
 * server masks them as well, and a script may hold one).
 */
const assignmentValues = (assignment: Assignment) => Object.values(assignment.env ?? {}).filter((value) => typeof value === 'string');

export async function runAssignment(options: RunAssignmentOptions): Promise<AssignmentResult> {
  const result = await runMasked(options);
  const mask = createMasker(assignmentValues(options.assignment));
  if (!mask) return result;
  return {
    ...result,
    outcome: result.outcome.reason === undefined ? result.outcome : { ...result.outcome, reason: mask(result.outcome.reason) },
    ...(result.startError === undefined ? {} : { startError: mask(result.startError) }),
  };
}

async function runMasked(options: RunAssignmentOptions): Promise<AssignmentResult> {
  const { tool, assignment, runner, signal } = options;
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  const startedAt = now();
  const workspaceEnv = toolEnvOf(assignment.env);
  const mask = createMasker(assignmentValues(assignment)) ?? ((text: string) => text);
  const notStarted = (reason: string, outcomeReason = reason): AssignmentResult => ({
    outcome: { status: 'failed', reason: outcomeReason },
    summary: emptySnapshot(startedAt, now()),
    exitCode: null,
    startError: reason,
  });

  if (signal?.aborted) return { outcome: { status: 'failed', reason: cancelledReason }, summary: emptySnapshot(startedAt), exitCode: null };
  // A variable stored before a rule reserved its name (a PYTHONHOME) is left out, and the run says so once, first.
  for (const { key, reason } of droppedToolEnv(assignment.env)) {
    options.onLog?.({ source: 'err', text: mask(`[loadplane] ${key} is not passed to the tool: ${reason}`), ts: now() });
  }

  let command: ToolCommand;
  let parser: ToolOutputParser;
  try {
    const available = await tool.available();
    if (!available.ok) return notStarted(`${tool.tool} is not available on this machine: ${available.reason}`);
    command = tool.command(assignment);
    parser = tool.createParser(assignment);
    if (command.argv.length === 0) return notStarted(`${tool.tool} built an empty command`);
  } catch (error) {
    return notStarted(`${tool.tool} could not prepare the run: ${message(error)}`);
  }

  const files = command.files ?? {};
  const program = directProgram(command.argv, files);
  let workDir: { path: string; remove(): Promise<void> };
  try {
    workDir = await runner.makeWorkDir(files, program ? [program] : []);
  } catch (error) {
    return notStarted(`could not prepare the work directory: ${message(error)}`);
  }

  const intervalMs = options.metricsIntervalMs ?? 1000;
  const graceMs = options.killGraceMs ?? 5000;
  const nothing = () => {};
  let stopMetrics = nothing;
  let cancelKill = nothing;
  let progress: ProgressReporter | null = null;
  let tail: { stop(): Promise<void> } | null = null;
  let cancelled = false;
  let onAbort: (() => void) | null = null;

  const emitInterval = () => {
    try {
      const snapshot = parser.takeInterval(now());
      if (!snapshot) return;
      options.onMetrics?.(snapshot);
      progress?.absorb(snapshot);
    } catch {
      // A broken interval must not stop the run; the summary still carries every sample.
    }
  };

  try {
    const argv = program ? [`${workDir.path}/${program}`, ...command.argv.slice(1)] : command.argv;
    let proc: RunningProcess;
    // From before the spawn: an engine's start-up (a JVM, a compile) is part of the quiet it reports on.
    progress = startProgressReporter({
      clock,
      quietMs: options.progressQuietMs ?? 2000,
      // Past the parser (it never reads the agent's own lines, so no summary counts them), masked as any line is.
      emit: (text, at) => options.onLog?.({ source: 'out', text: mask(text), ts: at }),
    });
    try {
      proc = await runner.spawn({
        argv,
        cwd: workDir.path,
        env: { ...workspaceEnv, ...options.baseEnv, ...command.env },
        onLine(source, line) {
          let text: string | null;
          try {
            text = parser.onOutput(source, line);
          } catch {
            text = line; // a parser bug still lets the user see the tool's output
          }
          if (text === null) return;
          progress?.heard();
          options.onLog?.({ source, text: mask(text), ts: now() });
        },
      });
    } catch (error) {
      return notStarted(message(error));
    }

    onAbort = () => {
      if (cancelled) return;
      cancelled = true;
      proc.kill('SIGTERM');
      cancelKill = clock.after(graceMs, () => proc.kill('SIGKILL'));
    };
    // Abort may have come while the process was starting.
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });

    try {
      options.onStarted?.(proc.pid);
    } catch {
      // The caller's bookkeeping must not orphan a running tool.
    }
    if (command.sampleFile) {
      tail = runner.tail(`${workDir.path}/${command.sampleFile}`, (line) => {
        try {
          parser.onSample?.(line);
        } catch {
          // One unreadable sample line is skipped, not fatal.
        }
      });
    }
    stopMetrics = clock.every(intervalMs, emitInterval);

    const exit = await proc.exited;
    cancelKill();
    // The tool is gone and its output read: its figures are the summary's now, not a progress line's.
    progress.stop();
    // The tool may flush its last samples at exit: read the sample file to its end before the final numbers.
    await tail?.stop();
    tail = null;
    stopMetrics();
    emitInterval();

    let outcome: RunOutcome;
    let summary: MetricSnapshot;
    try {
      summary = parser.summary();
      outcome = cancelled ? { status: 'failed', reason: cancelledReason } : parser.outcome(exit.code, exit.signal);
    } catch (error) {
      summary = emptySnapshot(startedAt, now());
      outcome = { status: 'failed', reason: `could not read ${tool.tool}'s results: ${message(error)}` };
    }
    return { outcome, summary, exitCode: exit.code };
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    progress?.stop();
    stopMetrics();
    cancelKill();
    await tail?.stop().catch(() => {});
    await workDir.remove().catch(() => {});
  }
}
