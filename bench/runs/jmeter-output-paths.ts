/** Diagnostic for the JMeter overhead (docs/benchmarks.md, "Engines through the agent"): plain JMeter, the agent's command with Loadplane's listener, the JTL fallback's whole command (fd 3 and the relay), and its plan and properties writing the JTL to a file, 10 s each, outside the agent. Run: ./node_modules/.bin/bun bench/runs/jmeter-output-paths.ts */
import { leg } from '../engine-overhead/jmeter.ts';
import { jmeterCommand } from '../../plugins/load-tool-jmeter/jmeter-command.ts';
import { startCountingTarget } from './counting-target.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
const target = await startCountingTarget();
const bin = leg.aloneCommand({ workDir: '/x', vus: 20, durationS: 10, targetUrl: '' }).argv[0]!;
const script = leg.script(target.url);
const assignment = { assignmentId: 'a', taskId: 't', testId: 'x', tool: 'jmeter', script, config: { vus: 20, duration: '10s' }, machineIndex: 0, machineCount: 1 } as never;
const cmd = jmeterCommand(assignment, bin);
const listenerCmd = jmeterCommand(assignment, bin, { metricsListener: true });
const dir = mkdtempSync('/tmp/jmx-');
for (const [name, text] of Object.entries(cmd.files ?? {})) writeFileSync(`${dir}/${name}`, text as string);
writeFileSync(`${dir}/listener.jmx`, listenerCmd.files!['plan.jmx']!);
writeFileSync(`${dir}/alone.jmx`, script);
const base = leg.aloneCommand({ workDir: dir, vus: 20, durationS: 10, targetUrl: target.url }).argv;
const jIdx = cmd.argv.indexOf(bin);
const engineArgs = cmd.argv.slice(jIdx);
const variants: Record<string, { argv: string[]; stdout: 'ignore' | 'pipe' }> = {
  plain: { argv: base, stdout: 'ignore' },
  listener: { argv: listenerCmd.argv.map((a) => (a === 'plan.jmx' ? 'listener.jmx' : a)), stdout: 'pipe' },
  agentCmdFull: { argv: cmd.argv, stdout: 'pipe' },
  agentPlanToFile: { argv: [...engineArgs.map((a) => (a === '/dev/fd/3' ? `${dir}/x.jtl` : a))], stdout: 'ignore' },
  plain2: { argv: base, stdout: 'ignore' },
  listener2: { argv: listenerCmd.argv.map((a) => (a === 'plan.jmx' ? 'listener.jmx' : a)), stdout: 'pipe' },
  agentCmdFull2: { argv: cmd.argv, stdout: 'pipe' },
};
for (const [name, v] of Object.entries(variants)) {
  await target.reset();
  const p = Bun.spawn(v.argv, { cwd: dir, stdout: v.stdout, stderr: 'ignore', env: { ...process.env, ...(cmd.env ?? {}) } });
  if (v.stdout === 'pipe') { const r = p.stdout!.getReader(); (async () => { for (;;) { const x = await r.read(); if (x.done) break; } })(); }
  await p.exited;
  const c = await target.count();
  console.log(name, Math.round(c.requests / ((c.lastAt - c.firstAt) / 1000)), c.requests);
}
await target.stop();
