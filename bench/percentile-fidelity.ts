/**
 * Percentile fidelity across machines: one task on 8 real agents, each reporting samples from a different latency
 * distribution, and the task's p50/p95/p99 (read from the merge of the machines' histograms) compared with the exact
 * percentiles of all raw samples pooled. Next to it, the error of averaging each machine's own percentile, which is
 * what a control plane that stores per-machine percentiles instead of histograms reports.
 *
 *   ./node_modules/.bin/bun bench/percentile-fidelity.ts [--agents 8] [--samples 100000] [--database pglite|postgres]
 *
 * The samples are generated on the agents by a `custom` script (awk with a Park–Miller generator, exact in doubles)
 * and regenerated here with the same arithmetic, so the raw pool is known without shipping it anywhere.
 */
import { machineDescription } from './machine.ts';
import { createTest, fmt, markdownTable, parseFlags, percentile, startBenchAgent, startRunsService, waitForTask } from './runs/harness.ts';

const { flags } = parseFlags(Bun.argv.slice(2), { agents: '8', samples: '100000', database: 'pglite' });
const agentCount = Number(flags.agents);
const samplesPerAgent = Number(flags.samples);
const database = flags.database as 'pglite' | 'postgres';

/**
 * Machine i's distribution: a body of base + span·u⁴ milliseconds and, for 3 % of the requests, a slow tail of up to
 * tail ms more. Bases, spans and tails differ per machine, so per-machine percentiles differ widely (a fleet in
 * several regions, or one overloaded generator) and averaging them is visibly wrong.
 */
const shape = (i: number) => ({ base: 2 + 3 * i, span: 20 + 40 * (i % 3), tail: 150 * (1 + (i % 4)) });
const modulus = 2147483647;
const seedOf = (i: number) => 1000 + 7919 * i;

/** The agent's script: the same generator and shapes in awk, one `loadplane:sample` line per request. */
function agentScript(): string {
  return `#!/bin/sh
exec awk -v i="$LOADPLANE_MACHINE_INDEX" -v n=${samplesPerAgent} 'BEGIN {
  base = 2 + 3 * i; span = 20 + 40 * (i % 3); tail = 150 * (1 + (i % 4));
  x = 1000 + 7919 * i;
  for (k = 0; k < n; k++) {
    x = (16807 * x) % ${modulus}; u = x / ${modulus};
    x = (16807 * x) % ${modulus}; t = x / ${modulus};
    v = base + span * u * u * u * u;
    if (t < 0.03) { x = (16807 * x) % ${modulus}; v += tail * (x / ${modulus}); }
    printf "loadplane:sample %.3f\\n", v;
  }
}'
`;
}

/** The same samples, regenerated here (JavaScript numbers are the same IEEE doubles awk uses). */
function samplesOf(i: number): number[] {
  const { base, span, tail } = shape(i);
  let x = seedOf(i);
  const out: number[] = new Array(samplesPerAgent);
  for (let k = 0; k < samplesPerAgent; k++) {
    x = (16807 * x) % modulus;
    const u = x / modulus;
    x = (16807 * x) % modulus;
    const t = x / modulus;
    let v = base + span * u * u * u * u;
    if (t < 0.03) {
      x = (16807 * x) % modulus;
      v += tail * (x / modulus);
    }
    out[k] = Number(v.toFixed(3));
  }
  return out;
}

interface TaskFigures {
  status: string;
  total_requests: number;
  p50: number;
  p95: number;
  p99: number;
  machine_ids: string[];
}

async function main() {
  const runs = await startRunsService({ database });
  const agents: { kill(): Promise<void> }[] = [];
  try {
    const machineIds: string[] = [];
    for (let i = 0; i < agentCount; i++) {
      const { agent, machineId } = await startBenchAgent(runs, `fidelity-${i}`);
      agents.push(agent);
      machineIds.push(machineId);
    }
    const testId = await createTest(runs, 'percentile fidelity', 'custom', agentScript());
    const post = await runs.api<{ id: string }>('/tasks', { method: 'POST', json: { testId, machineIds } });
    if (post.status !== 202) throw new Error(`POST /tasks: ${post.status} ${JSON.stringify(post.body)}`);
    await waitForTask(runs, post.body.id, 300_000, 200);
    const task = (await runs.api<TaskFigures>(`/tasks/${post.body.id}`)).body;
    if (task.status !== 'completed') throw new Error(`task ${task.status}: ${JSON.stringify(task)}`);

    const perMachine = Array.from({ length: agentCount }, (_, i) => samplesOf(i));
    const pooled = perMachine.flat();
    if (task.total_requests !== pooled.length) throw new Error(`task counted ${task.total_requests} requests, the agents sent ${pooled.length}`);
    const rows: string[][] = [];
    const summary: { p: number; merged: number; averaged: number }[] = [];
    for (const [p, reported] of [
      [50, task.p50],
      [95, task.p95],
      [99, task.p99],
    ] as const) {
      const exact = percentile(pooled, p);
      const averaged = perMachine.reduce((sum, samples) => sum + percentile(samples, p), 0) / agentCount;
      const mergedError = Math.abs(reported - exact) / exact;
      const averagedError = Math.abs(averaged - exact) / exact;
      summary.push({ p, merged: mergedError, averaged: averagedError });
      rows.push([
        `p${p}`,
        fmt(exact, 3),
        fmt(reported, 3),
        `${fmt(mergedError * 100, 4)} %`,
        fmt(averaged, 3),
        `${fmt(averagedError * 100, 2)} %`,
        mergedError === 0 ? 'exact' : fmt(averagedError / mergedError, 0),
      ]);
    }
    const machine = machineDescription();
    const out = [
      `## Percentile fidelity: ${agentCount} agents, ${samplesPerAgent.toLocaleString('en-US')} samples each (${database})`,
      '',
      machine.markdown,
      `- One \`custom\` task on ${agentCount} real agent processes; machine i reports base + span·u⁴ ms (base 2+3i, span 20/60/100) plus a 3 % tail of up to 150–600 ms`,
      `- "merged": the task's percentile (histograms of all machines merged, then read); "averaged": the mean of each machine's exact percentile`,
      '',
      markdownTable(['percentile', 'pooled raw (exact), ms', 'task (merged), ms', 'merged error', 'average of machines, ms', 'averaging error', 'averaging error / merged error'], rows),
      '',
      `Largest merged error: ${fmt(Math.max(...summary.map((s) => s.merged)) * 100, 4)} % (aim ≤ 0.1 %).`,
    ];
    console.log(out.join('\n'));
  } finally {
    for (const agent of agents) await agent.kill();
    await runs.stop();
  }
}

await main();
