/**
 * The http engine itself: its histogram is LatencyHistogram's to the byte, its schedule ramps as documented, and the
 * real engine process (run as the agent runs it) counts every request per step against a target's own count, with
 * expectations, redirects, timeouts and a cancel.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LatencyHistogram, readEngineSnapshot } from 'loadplane/plugin';
import { createModuleRuntime } from 'loadplane/plugin/testing';
import { vusAt } from './engine/load-schedule.ts';
import type { EnginePlan, PlannedStep } from './engine/plan.ts';
import { StepHistogram } from './engine/step-histogram.ts';
import { engineModule } from './http-tool.ts';

/** The same latencies in the engine's histogram and in LatencyHistogram (into `ours` when given). */
function recordedInBoth(values: readonly number[], ours = new StepHistogram()): [StepHistogram, LatencyHistogram] {
  const theirs = new LatencyHistogram();
  for (const value of values) {
    ours.record(value);
    theirs.record(value);
  }
  return [ours, theirs];
}

describe('the engine\'s histogram', () => {
  test('the same buckets, encoding and percentiles as LatencyHistogram', () => {
    const [ours, theirs] = recordedInBoth([0, 0.0004, 0.001, 1, 2.047, 2.048, 2.049, 5.5, 15.123456, 1023.9, 4096.5, 123456.789, 3_700_000, 42, 42, 42]);
    expect(ours.encode()).toEqual(theirs.encode());
    for (const percent of [0, 1, 50, 90, 95, 99, 99.9, 100]) expect(ours.percentile(percent)).toBe(theirs.percentile(percent));
    expect(new StepHistogram().encode()).toEqual(new LatencyHistogram().encode());
  });

  test('the same bytes over every chunk of buckets, and after clear() as a fresh one', () => {
    // Latencies from 0 to past the hour's clamp, so every typed-array chunk of buckets is used, with repeats.
    const values = Array.from({ length: 5_000 }, (_, i) => (i % 7 === 0 ? 0.25 : Math.exp((i % 997) / 50) / 1000) * (1 + (i % 3)));
    values.push(3_599_999.999, 3_600_000, 9_000_000);
    const [ours, theirs] = recordedInBoth(values);
    expect(ours.encode()).toEqual(theirs.encode());
    for (const percent of [0, 0.1, 25, 50, 90, 99, 99.99, 100]) expect(ours.percentile(percent)).toBe(theirs.percentile(percent));
    // An interval's histogram is cleared and reused: nothing of the last interval may remain.
    ours.clear();
    expect(ours.encode()).toEqual(new LatencyHistogram().encode());
    expect(ours.percentile(50)).toBe(0);
    const [, next] = recordedInBoth([4.2, 0.001, 77], ours);
    expect(ours.encode()).toEqual(next.encode());
    expect(ours.percentile(50)).toBe(next.percentile(50));
  });
});

describe('the schedule', () => {
  const segments = [
    { durationMs: 2_000, from: 0, to: 4 },
    { durationMs: 1_000, from: 4, to: 4 },
    { durationMs: 1_000, from: 4, to: 1 },
  ];
  test('linear ramps, nearest whole VU, one segment after the other, null once over', () => {
    expect([0, 249, 250, 1_000, 1_750, 1_999].map((at) => vusAt(segments, at))).toEqual([0, 0, 1, 2, 4, 4]);
    expect([2_000, 2_999].map((at) => vusAt(segments, at))).toEqual([4, 4]);
    expect([3_000, 3_500, 3_999].map((at) => vusAt(segments, at))).toEqual([4, 3, 1]);
    expect(vusAt(segments, 4_000)).toBeNull();
    expect(vusAt([], 0)).toBeNull();
  });
});

describe('the engine process', () => {
  const served = new Map<string, number>();
  let server: ReturnType<typeof Bun.serve>;
  let base = '';
  let workDir = '';
  const runtime = createModuleRuntime();

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'loadplane-http-engine-'));
    server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(request) {
        const path = new URL(request.url).pathname;
        served.set(path, (served.get(path) ?? 0) + 1);
        if (path === '/created') return new Response(await request.text(), { status: 201 });
        if (path === '/broken') return new Response('oops', { status: 500 });
        if (path === '/moved') return new Response(null, { status: 302, headers: { location: '/elsewhere' } });
        if (path === '/hang') await Bun.sleep(3_000);
        return new Response('hello from the target');
      },
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    server.stop(true);
    await rm(workDir, { recursive: true, force: true });
  });

  const step = (name: string, path: string, extra: Partial<PlannedStep> = {}): PlannedStep => ({
    name,
    method: 'GET',
    url: `${base}${path}`,
    headers: {},
    body: null,
    expectStatus: null,
    bodyContains: null,
    ...extra,
  });

  async function startEngine(plan: Partial<EnginePlan> & Pick<EnginePlan, 'steps' | 'load'>) {
    const file = `plan-${crypto.randomUUID()}.json`;
    await writeFile(join(workDir, file), JSON.stringify({ timeoutMs: 30_000, metricsIntervalMs: 200, progressIntervalMs: 200, description: 'test', ...plan }));
    served.clear();
    const proc = Bun.spawn([...runtime.command(engineModule), file], { cwd: workDir, stdout: 'pipe', stderr: 'pipe' });
    let out = '';
    const reading = (async () => {
      const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) out += next.value;
    })();
    const errors = new Response(proc.stderr).text();
    return {
      proc,
      async done() {
        const code = await proc.exited;
        await reading;
        return { code, out, err: await errors };
      },
    };
  }

  /** The requests and errors of every machine snapshot in the output, summed (what the agent records). */
  const snapshotTotals = (out: string) =>
    out
      .split('\n')
      .filter((line) => line.startsWith('LOADPLANE_METRICS '))
      .map((line) => readEngineSnapshot(line.slice('LOADPLANE_METRICS '.length))!)
      .reduce((sum, snapshot) => ({ requests: sum.requests + snapshot.requests, errors: sum.errors + snapshot.errors }), { requests: 0, errors: 0 });

  test('iterations: every step of every VU, the target\'s count per path; expectations, redirects and bodies as the plan says', async () => {
    const engine = await startEngine({
      steps: [
        step('home', '/', { bodyContains: 'hello' }),
        step('create', '/created', { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' }, expectStatus: [201], bodyContains: '"a":1' }),
        step('broken', '/broken'),
        step('moved', '/moved'),
        step('wrong text', '/text', { bodyContains: 'goodbye' }),
        step('wrong status', '/created', { method: 'POST', body: 'x', expectStatus: [200, 204] }),
      ],
      load: { kind: 'iterations', vus: 3, iterations: 4 },
    });
    const { code, out } = await engine.done();
    expect(code).toBe(0);
    // 3 VUs × 4 iterations: 12 requests per step, and a redirect is one request (not followed).
    expect(Object.fromEntries(served)).toEqual({ '/': 12, '/created': 24, '/broken': 12, '/moved': 12, '/text': 12 });
    expect(snapshotTotals(out)).toEqual({ requests: 72, errors: 36 });
    const summary = out.slice(out.indexOf('[http] summary'));
    expect(summary).toMatch(/\nhome +12 +0 +0 +0 +0 /);
    expect(summary).toMatch(/\ncreate +12 +0 +0 +0 +0 /);
    expect(summary).toMatch(/\nbroken +12 +12 +12 +0 +0 /);
    expect(summary).toMatch(/\nmoved +12 +0 +0 +0 +0 /);
    expect(summary).toMatch(/\nwrong text +12 +12 +0 +0 +12 /);
    expect(summary).toMatch(/\nwrong status +12 +12 +12 +0 +0 /);
    expect(summary).toMatch(/\n\(all steps\) +72 +36 +24 +0 +12 /);
    expect(summary).toContain('[http] broken: 12 × status 500: status 500, expected below 400');
    expect(summary).toContain('[http] wrong status: 12 × status 201: status 201, expected one of 200, 204');
    expect(summary).toContain('[http] wrong text: 12 × check body_contains: the body does not contain "goodbye"');
    expect(out).toContain('[http] finished after');
  });

  test('a request without an answer in time is a network error "timeout" of its step, and the VU goes on', async () => {
    const engine = await startEngine({
      steps: [step('slow', '/hang'), step('fast', '/fast')],
      load: { kind: 'iterations', vus: 1, iterations: 2 },
      timeoutMs: 200,
    });
    const { code, out } = await engine.done();
    expect(code).toBe(0);
    expect(Object.fromEntries(served)).toEqual({ '/hang': 2, '/fast': 2 });
    expect(out).toMatch(/\nslow +2 +2 +0 +2 +0 /);
    expect(out).toContain('[http] slow: 2 × network timeout: no complete answer within 0.2 s');

    // A request still in flight when the load's time is up finishes, or times out like any other.
    const late = await startEngine({ steps: [step('slow', '/hang')], load: { kind: 'segments', segments: [{ durationMs: 50, from: 1, to: 1 }] }, timeoutMs: 300 });
    const ended = await late.done();
    expect(ended.code).toBe(0);
    expect(served.get('/hang')).toBe(1);
    expect(ended.out).toMatch(/\nslow +1 +1 +0 +1 +0 /);
  });

  test('SIGTERM: what is in flight is aborted, the last snapshot and the summary are printed, exit 143', async () => {
    const engine = await startEngine({ steps: [step('home', '/'), step('slow', '/hang')], load: { kind: 'segments', segments: [{ durationMs: 600_000, from: 4, to: 4 }] } });
    // Every VU waits on /hang after its first request: the cancel must not wait for those answers.
    const deadline = Date.now() + 20_000;
    while ((served.get('/hang') ?? 0) < 4 && Date.now() < deadline) await Bun.sleep(20);
    expect(served.get('/hang')).toBe(4);
    engine.proc.kill('SIGTERM');
    const { code, out } = await engine.done();
    expect(code).toBe(143);
    expect(out).toContain('[http] cancelled after');
    // The aborted requests are not results; every answered one is, in the snapshots as in the summary.
    expect(snapshotTotals(out)).toEqual({ requests: 4, errors: 0 });
    expect(out).toMatch(/\nhome +4 +0 /);
    expect(out).toMatch(/\nslow +0 +0 /);
  });

  test('a share of 0 VUs ends at once without a request; an unreadable plan is exit 2 with the reason', async () => {
    const idle = await startEngine({ steps: [step('home', '/')], load: { kind: 'segments', segments: [] } });
    const finished = await idle.done();
    expect(finished.code).toBe(0);
    expect(finished.out).toContain("this machine's share of the load is 0 VUs: nothing to run");
    expect(served.size).toBe(0);

    const broken = Bun.spawn([...runtime.command(engineModule), 'missing-plan.json'], { cwd: workDir, stdout: 'pipe', stderr: 'pipe' });
    expect(await broken.exited).toBe(2);
    expect(await new Response(broken.stderr).text()).toContain('[http] error: cannot read the plan');
  });
});
