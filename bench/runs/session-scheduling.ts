/**
 * Diagnostic for the engine-overhead benchmark (docs/benchmarks.md, "Engines through the agent"): plain JMeter against
 * the counting target, started in the caller's session and in a session of its own (`setsid`, which is what the agent's
 * process runner does so one signal ends a tool's whole tree), alternating, 10 s each. With the kernel's autogroup
 * scheduling on (/proc/sys/kernel/sched_autogroup_enabled), a session is a scheduling group, and on a small machine
 * that also runs the target the engine's requests/s differ by the session alone.
 *   ./node_modules/.bin/bun bench/runs/session-scheduling.ts [rounds=2]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { leg } from '../engine-overhead/jmeter.ts';
import { startCountingTarget } from './counting-target.ts';

const rounds = Number(Bun.argv[2] ?? 2);
const autogroup = (() => {
  try {
    return readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1' ? 'on' : 'off';
  } catch {
    return 'unknown';
  }
})();
const target = await startCountingTarget();
const dir = mkdtempSync('/tmp/loadplane-session-');
writeFileSync(`${dir}/plan.jmx`, leg.script(target.url));
const base = leg.aloneCommand({ workDir: dir, vus: 20, durationS: 10, targetUrl: target.url }).argv;
const rates: Record<string, number[]> = { shared: [], own: [] };
for (let round = 0; round < rounds; round++) {
  for (const session of ['shared', 'own'] as const) {
    await target.reset();
    const child = Bun.spawn(session === 'own' ? ['setsid', '--wait', ...base] : base, { cwd: dir, stdout: 'ignore', stderr: 'ignore' });
    await child.exited;
    const counted = await target.count();
    rates[session]!.push(counted.requests / ((counted.lastAt - counted.firstAt) / 1000));
  }
}
await target.stop();
rmSync(dir, { recursive: true, force: true });
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
console.log(`autogroup ${autogroup}; JMeter 20 threads req/s, caller's session: ${rates.shared!.map(Math.round).join(', ')}; own session: ${rates.own!.map(Math.round).join(', ')}; own / shared ${(mean(rates.own!) / mean(rates.shared!)).toFixed(3)}`);
