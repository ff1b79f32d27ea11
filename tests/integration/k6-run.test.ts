/**
 * The real k6 through runAssignment and the node process runner, against a local HTTP target that keeps its own count:
 * requests, error rate, percentiles and interval snapshots must agree with what the target saw; thresholds and cancel.
 * Twice: with our k6's loadplane output (snapshots aggregated inside k6) and through JSON samples.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { locateEngineOnHost } from '../../adapters/agent/engine-locator.ts';
import { createNodeProcessRunner } from '../../adapters/process/node-process-runner.ts';
import { type AssignmentResult, type LogLine, runAssignment } from '../../core/agent/run-assignment.ts';
import type { Assignment, LoadConfig, LoadTool, MetricSnapshot } from '../../core/capabilities/load-tool.ts';
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';
import { k6OutputExtensionName, k6OutputProbe } from '../../plugins/load-tool-k6/engine.ts';
import { createK6Tool } from '../../plugins/load-tool-k6/k6-tool.ts';
import { findK6, k6MissingReason, requireOrSkip } from '../helpers/k6-binary.ts';
import { waitFor } from '../helpers/process-probes.ts';

const k6 = findK6();
const runner = createNodeProcessRunner();
const probe = k6 ? await locateEngineOnHost(k6OutputProbe(k6), { env: process.env }) : null;
const hasOutput = probe?.found === true && probe.version === k6OutputExtensionName;
const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' };

const modes = [
  { mode: 'loadplane output', tool: createK6Tool({ binary: k6 ?? 'k6', which: runner.which, snapshots: true }), missing: k6 && !hasOutput ? `${k6} has no loadplane output extension: run \`bash scripts/install-engines k6\`` : null },
  { mode: 'JSON samples', tool: createK6Tool({ binary: k6 ?? 'k6', which: runner.which }), missing: null },
];

/** The target: `/slow` sleeps 1-20 ms, `/fast` answers at once; every 10th request (of all) is a 500. */
const target = { requests: 0, errors: 0 };
let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      // Both counts at arrival: a request still sleeping when a cancelled run's test ends must not count an error
      // into the next test's fresh counts (it did once: errors 195 against k6's 194, requests equal).
      const fails = ++target.requests % 10 === 0;
      if (fails) target.errors++;
      if (new URL(request.url).pathname === '/slow') await Bun.sleep(1 + Math.random() * 19);
      return fails ? new Response('boom', { status: 500 }) : new Response('ok');
    },
  });
});
afterAll(() => server.stop(true));
beforeEach(() => {
  target.requests = 0;
  target.errors = 0;
});

const url = () => `http://127.0.0.1:${server.port}`;

function assignment(script: string, config: LoadConfig | null): Assignment {
  return { assignmentId: 'k6-it', taskId: 'k6-it-task', testId: 'k6-it-test', tool: 'k6', script, config, machineIndex: 0, machineCount: 1 };
}

async function run(tool: LoadTool, script: string, config: LoadConfig | null, signal?: AbortSignal, onStarted?: (pid: number) => void, logs: LogLine[] = []) {
  const intervals: MetricSnapshot[] = [];
  const result: AssignmentResult = await runAssignment({
    tool,
    assignment: assignment(script, config),
    runner,
    signal,
    baseEnv,
    metricsIntervalMs: 500,
    onStarted,
    onLog: (line) => logs.push(line),
    onMetrics: (snapshot) => intervals.push(snapshot),
  });
  return { result, logs, intervals, transcript: logs.map((l) => `${l.source}| ${l.text}`).join('\n') };
}

function groupGone(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe.each(modes)('k6 against a local target ($mode)', ({ mode, tool, missing }) => {
  const ready = (suite: string) => requireOrSkip(k6 ? missing : k6MissingReason, `${suite} (${mode})`);

  test('5 VUs for 3 s: counts, error rate and percentiles agree with the target', async () => {
    if (!ready('the k6 integration test')) return;
    // Three slow requests per fast one, so the median lands among the slow ones (≥ 1 ms).
    const script = `
import http from 'k6/http';
export default function () {
  http.get('${url()}/slow');
  http.get('${url()}/slow');
  http.get('${url()}/slow');
  http.get('${url()}/fast');
}
`;
    const { result, intervals, transcript } = await run(tool, script, { vus: 5, duration: '3s' });
    expect(result.startError, transcript).toBeUndefined();
    expect(result.outcome, transcript).toEqual({ status: 'completed' });
    expect(result.exitCode).toBe(0);
    // k6's end-of-test summary lands in the log.
    expect(transcript).toContain('http_reqs');

    const { summary } = result;
    expect(summary.requests).toBe(target.requests);
    expect(summary.errors).toBe(target.errors);
    const errorRate = summary.errors / summary.requests;
    expect(Math.abs(errorRate - 0.1)).toBeLessThan(0.01);

    const histogram = LatencyHistogram.decode(summary.histogram);
    expect(histogram.count).toBe(summary.requests);
    const [p50, p95, p99] = [50, 95, 99].map((p) => histogram.percentile(p)) as [number, number, number];
    expect(p50).toBeGreaterThanOrEqual(1);
    expect(p95).toBeGreaterThanOrEqual(p50);
    expect(p99).toBeGreaterThanOrEqual(p95);
    // Plausible, not timed: the target answers in 1-20 ms; ten seconds is room for a loaded machine, while a unit slip
    // (microseconds read as milliseconds) would still be caught.
    expect(p99).toBeLessThan(10_000);

    // Interval snapshots arrived while k6 ran, and add up to the summary.
    expect(intervals.length).toBeGreaterThanOrEqual(3);
    expect(intervals.reduce((sum, s) => sum + s.requests, 0)).toBe(summary.requests);
    expect(intervals.reduce((sum, s) => sum + s.errors, 0)).toBe(summary.errors);
    const merged = intervals.reduce((all, s) => all.merge(LatencyHistogram.decode(s.histogram)), new LatencyHistogram());
    expect(merged.count).toBe(histogram.count);
    expect(merged.percentile(95)).toBe(p95);

    const seconds = (summary.endedAt - summary.startedAt) / 1000;
    console.log(
      `k6 (${mode}) 5 VUs x 3s: ${summary.requests} requests, ${summary.errors} errors (${(errorRate * 100).toFixed(1)}%), ` +
        `${Math.round(summary.requests / 3)} rps (over ${seconds.toFixed(1)} s incl. start-up: ${Math.round(summary.requests / seconds)} rps), ` +
        `p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, ${intervals.length} intervals`,
    );
  }, 60_000);

  test('a crossed threshold ends failed, with the reason naming thresholds', async () => {
    if (!ready('the k6 threshold test')) return;
    const script = `
import http from 'k6/http';
export const options = { thresholds: { http_req_failed: ['rate<0.01'] } };
export default function () {
  http.get('${url()}/fast');
}
`;
    const { result, transcript } = await run(tool, script, { vus: 2, duration: '1s' });
    expect(result.exitCode, transcript).toBe(99);
    expect(result.outcome.status).toBe('failed');
    expect(result.outcome.reason).toMatch(/thresholds crossed/);
    expect(result.outcome.reason).toContain('http_req_failed');
    expect(result.summary.requests).toBe(target.requests);
  }, 60_000);

  test('a script error ends failed with k6\'s message', async () => {
    if (!ready('the k6 script-error test')) return;
    const { result } = await run(tool, 'export default function () { notDefinedAnywhere(); }\nexport const options = { iterations: 1 };', null);
    // An exception inside an iteration is logged, not fatal; one in the init context is exit 107.
    const initError = await run(tool, 'notDefinedAnywhere();\nexport default function () {}', null);
    expect(result.outcome.status).toBe('completed');
    expect(initError.result.outcome.status).toBe('failed');
    expect(initError.result.outcome.reason).toMatch(/script error: .*notDefinedAnywhere.*\(exit code 107\)/);
  }, 60_000);

  test('cancel mid-run: the process group is gone and the outcome is failed/cancelled', async () => {
    if (!ready('the k6 cancel test')) return;
    const script = `
import http from 'k6/http';
export default function () {
  http.get('${url()}/slow');
}
`;
    const controller = new AbortController();
    let pid = 0;
    // Ten minutes, past the test's timeout: the run can only end in time because the cancel stopped k6.
    const live: LogLine[] = [];
    const running = run(tool, script, { vus: 3, duration: '10m' }, controller.signal, (started) => (pid = started), live);
    await waitFor(() => target.requests >= 20, 30_000, 'k6 to send 20 requests');
    // The live log shows k6's progress while it runs (a line a second without a terminal), not only at the end.
    await waitFor(() => live.some((line) => /^running \(\d/.test(line.text)), 30_000, "k6's progress line in the live log");
    const abortedAt = Date.now();
    controller.abort();
    const { result, transcript } = await running;
    const stoppedIn = Date.now() - abortedAt;
    expect(result.outcome, transcript).toEqual({ status: 'failed', reason: 'cancelled' });
    // Zombies are reaped by PID 1, which may take a moment in a container.
    await waitFor(() => groupGone(pid), 30_000, `k6's process group ${pid} to be gone`);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(groupGone(pid)).toBe(true);
    // What k6 wrote before it died is kept; requests still in flight at the kill may be missing, never invented.
    expect(result.summary.requests).toBeGreaterThan(0);
    expect(result.summary.requests).toBeLessThanOrEqual(target.requests);
    console.log(`k6 (${mode}) cancel: stopped ${stoppedIn} ms after abort (exit ${result.exitCode}), ${result.summary.requests} requests`);
  }, 60_000);
});
