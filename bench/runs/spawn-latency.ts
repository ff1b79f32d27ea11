/**
 * Start latency of a tool through the agent's process runner, in the tool sandbox and without, alternating: from
 * "make the work directory" to the script's first output line, and to its exit. Prints JSON on stdout:
 * {mode, uid, on: {firstLine: ms[], exit: ms[]}, off: {...}, summary}. The sandbox benchmark runs it as the current
 * user and, when that is root, again as uid 65534 (the unprivileged agent's user-namespace path).
 *
 *   bun bench/runs/spawn-latency.ts [--iterations 40]
 */
import { createNodeProcessRunner } from '../../adapters/process/node-process-runner.ts';
import { openToolSandbox } from '../../adapters/process/sandbox/open-tool-sandbox.ts';
import { parseFlags } from './harness.ts';

const { flags } = parseFlags(process.argv.slice(2), { iterations: '40' });
const iterations = Number(flags.iterations);
const opened = await openToolSandbox({ mode: 'on', hide: [process.env.HOME ?? '/nonexistent', process.cwd()], readOnly: [] });
if (!opened.ok) throw new Error(opened.reason);
const runners = { on: createNodeProcessRunner({ sandbox: opened.sandbox }), off: createNodeProcessRunner() };
const results = { on: { firstLine: [] as number[], exit: [] as number[] }, off: { firstLine: [] as number[], exit: [] as number[] } };
const env = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', HOME: '/tmp' };

async function once(mode: 'on' | 'off') {
  const runner = runners[mode];
  const started = performance.now();
  // What the custom tool does: the script as an executable file, run directly so the kernel reads its shebang.
  const dir = await runner.makeWorkDir({ script: '#!/bin/sh\necho ready\n' }, ['script']);
  let firstLine = NaN;
  const proc = await runner.spawn({
    argv: [`${dir.path}/script`],
    cwd: dir.path,
    env,
    onLine: () => {
      if (Number.isNaN(firstLine)) firstLine = performance.now() - started;
    },
  });
  const exit = await proc.exited;
  const ended = performance.now() - started;
  await dir.remove();
  if (exit.code !== 0) throw new Error(`the ${mode} probe exited ${exit.code}`);
  results[mode].firstLine.push(firstLine);
  results[mode].exit.push(ended);
}

// Warm both paths (page cache, the runtime's spawn machinery) before measuring.
for (let i = 0; i < 3; i++) for (const mode of ['on', 'off'] as const) await once(mode);
for (const key of ['on', 'off'] as const) results[key] = { firstLine: [], exit: [] };
for (let i = 0; i < iterations; i++) for (const mode of i % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) await once(mode);
await opened.sandbox.dispose();
console.log(JSON.stringify({ uid: process.getuid?.(), ...results, summary: opened.sandbox.summary }));
