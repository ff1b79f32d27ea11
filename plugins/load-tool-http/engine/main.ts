/**
 * The http tool's engine, run by the agent's own runtime in the run's work directory: `<runtime> main.ts plan.json`.
 * Virtual users are async loops that run the plan's steps in order, again and again, with the runtime's fetch
 * (keep-alive connections, redirects not followed); the VUs due follow the plan's schedule. Each answer is checked
 * against its step's expectations and timed into per-step histograms. Prints a snapshot of the last interval every
 * second (`LOADPLANE_STEP` per endpoint name, then `LOADPLANE_METRICS` for the machine), a progress line every 2 s, and
 * at the end a summary table per step. SIGTERM (cancel) aborts what is in flight, prints the last snapshot and the
 * summary, and exits 143 at once; at the natural end the requests in flight finish (bounded by the request timeout).
 *
 * It imports nothing outside its folder: a sandboxed run can read only this folder of the plugin.
 */
import { peakVus, vusAt } from './load-schedule.ts';
import type { EnginePlan, PlannedStep } from './plan.ts';
import { type Failure, RunStats } from './run-stats.ts';

// engine-side source: begin
/** How often the schedule and the request timeouts are looked at: ramps and timeouts are this precise. */
const tickMs = 50;

let written: Promise<unknown> = Promise.resolve();
/** Lines to stdout, in order; awaited before the exit so nothing printed is lost. */
function print(lines: readonly string[], stream: 'out' | 'err' = 'out'): void {
  if (lines.length === 0) return;
  const text = `${lines.join('\n')}\n`;
  written = written.then(() => Bun.write(stream === 'out' ? Bun.stdout : Bun.stderr, text)).catch(() => {});
}

async function exit(code: number): Promise<never> {
  await written;
  process.exit(code);
}

let plan: EnginePlan;
try {
  plan = (await Bun.file(process.argv[2] ?? 'plan.json').json()) as EnginePlan;
  if (!Array.isArray(plan.steps) || plan.steps.length === 0 || !plan.load) throw new Error('no steps or no load in it');
} catch (error) {
  print([`[http] error: cannot read the plan: ${error instanceof Error ? error.message : String(error)}`], 'err');
  await exit(2);
}

const steps: PlannedStep[] = plan!.steps;
const load = plan!.load;
const timeoutMs = plan!.timeoutMs;
const stats = new RunStats(steps.map((step) => step.name));
/** Each step's endpoint slot in the stats, by step index: no lookup by name per request. */
const slots = steps.map((step) => stats.slotOf(step.name));

interface VirtualUser {
  readonly id: number;
  /** Aborts the VU's request in flight (its timeout, or the cancel); replaced once used. */
  controller: AbortController;
  /** When the request in flight started (performance.now()), 0 when none. */
  since: number;
  timedOut: boolean;
  running: Promise<void> | null;
}

function renew(vu: VirtualUser): void {
  vu.controller = new AbortController();
  vu.timedOut = false;
}

const users: VirtualUser[] = [];
const running = new Set<Promise<void>>();
/** The VUs the schedule asks for now; a VU whose id is not below it stops after its request in flight. */
let due = 0;
let stopping = false;
let cancelled = false;
const startedAt = performance.now();

function expected(step: PlannedStep): string {
  if (!step.expectStatus) return 'below 400';
  return step.expectStatus.length === 1 ? String(step.expectStatus[0]) : `one of ${step.expectStatus.join(', ')}`;
}

function networkFailure(error: unknown): Failure {
  const code = (error as { code?: unknown })?.code;
  const name = (error as { name?: unknown })?.name;
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'network', code: typeof code === 'string' && code ? code : typeof name === 'string' ? name : 'Error', message: message.slice(0, 300) };
}

async function execute(vu: VirtualUser, step: PlannedStep, slot: number): Promise<void> {
  const begun = performance.now();
  vu.since = begun;
  let failure: Failure | null = null;
  try {
    // One small object per request rather than one kept per VU and step: 10,000 VUs of 100 steps stay cheap.
    const response = await fetch(step.url, { method: step.method, headers: step.headers, body: step.body ?? undefined, redirect: 'manual', signal: vu.controller.signal });
    const statusOk = step.expectStatus ? step.expectStatus.includes(response.status) : response.status < 400;
    if (!statusOk) {
      failure = { kind: 'status', code: String(response.status), message: `status ${response.status}, expected ${expected(step)}` };
      await response.arrayBuffer();
    } else if (step.bodyContains !== null) {
      if (!(await response.text()).includes(step.bodyContains)) {
        failure = { kind: 'check', code: 'body_contains', message: `the body does not contain ${JSON.stringify(step.bodyContains)}` };
      }
    } else {
      // Read to its end, unread: the connection goes back to the pool, and the latency covers the whole answer.
      await response.arrayBuffer();
    }
  } catch (error) {
    vu.since = 0;
    // Aborted by the cancel: no answer to report, and the run's figures end here.
    if (cancelled) return;
    failure = vu.timedOut ? { kind: 'network', code: 'timeout', message: `no complete answer within ${timeoutMs / 1000} s` } : networkFailure(error);
  }
  // A used controller (a timeout, even one that fired as the answer completed) must not abort the next request.
  if (vu.controller.signal.aborted) renew(vu);
  vu.since = 0;
  stats.recordAt(slot, performance.now() - begun, failure, Date.now());
}

async function runUser(vu: VirtualUser): Promise<void> {
  const limit = load.kind === 'iterations' ? load.iterations : null;
  let index = 0;
  let iterations = 0;
  while (!stopping && vu.id < due) {
    await execute(vu, steps[index]!, slots[index]!);
    index++;
    if (index === steps.length) {
      index = 0;
      iterations++;
      if (limit !== null && iterations >= limit) break;
    }
  }
}

function startDueUsers(): void {
  for (let id = 0; id < due; id++) {
    let vu = users[id];
    if (!vu) {
      vu = { id, controller: new AbortController(), since: 0, timedOut: false, running: null };
      users[id] = vu;
    }
    if (vu.running) continue;
    const user = vu;
    const run: Promise<void> = runUser(user).finally(() => {
      user.running = null;
      running.delete(run);
      // Iterations: the run ends when its last VU is through.
      if (load.kind === 'iterations' && running.size === 0) stop(false);
    });
    user.running = run;
    running.add(run);
  }
}

const activeUsers = () => users.filter((vu) => vu.running).length;
const elapsedS = () => (performance.now() - startedAt) / 1000;

let progressMark = { at: startedAt, requests: 0 };
function progress(): void {
  const now = performance.now();
  const rate = ((stats.requests - progressMark.requests) * 1000) / Math.max(1, now - progressMark.at);
  progressMark = { at: now, requests: stats.requests };
  print([`[http] ${elapsedS().toFixed(1)}s  VUs ${activeUsers()}  requests ${stats.requests}  errors ${stats.errors}  req/s ${rate.toFixed(1)}`]);
}

function tick(): void {
  const now = performance.now();
  // Also while stopping: the requests in flight at the end must still time out.
  for (const vu of users) {
    if (vu.since > 0 && !vu.timedOut && now - vu.since > timeoutMs) {
      vu.timedOut = true;
      vu.controller.abort();
    }
  }
  if (stopping || load.kind !== 'segments') return;
  const next = vusAt(load.segments, now - startedAt);
  if (next === null) return stop(false);
  due = next;
  startDueUsers();
}

const timers = [
  setInterval(tick, tickMs),
  setInterval(() => print(stats.takeLines(activeUsers())), plan!.metricsIntervalMs),
  setInterval(progress, plan!.progressIntervalMs),
];
let finishing = false;

/** Ends the run: `cancel` aborts the requests in flight; otherwise they finish (each within the request timeout). */
function stop(cancel: boolean): void {
  if (cancel && !cancelled) {
    cancelled = true;
    for (const vu of users) vu.controller.abort();
  }
  stopping = true;
  if (finishing) return;
  finishing = true;
  void (async () => {
    await Promise.all([...running]);
    for (const timer of timers) clearInterval(timer);
    print(stats.takeLines(0));
    progress();
    print([`[http] ${cancelled ? 'cancelled' : 'finished'} after ${elapsedS().toFixed(1)}s: ${stats.requests} requests, ${stats.errors} errors`]);
    print(stats.summaryLines());
    await exit(cancelled ? 143 : 0);
  })();
}

process.on('SIGTERM', () => stop(true));
process.on('SIGINT', () => stop(true));

print([`[http] ${steps.length} step${steps.length === 1 ? '' : 's'}, ${plan!.description}; a request times out after ${timeoutMs / 1000}s`]);
if (load.kind === 'iterations') {
  due = load.vus;
  startDueUsers();
} else if (peakVus(load.segments) === 0) {
  print(["[http] this machine's share of the load is 0 VUs: nothing to run"]);
  for (const timer of timers) clearInterval(timer);
  await exit(0);
} else {
  tick();
}
// engine-side source: end
