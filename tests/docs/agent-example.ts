/**
 * A block that starts an agent (`npm run agent` with LOADPLANE_URL and LOADPLANE_TOKEN): run as written against the
 * test service, in the session's own home (its state directory lands there); it must print what it can run and
 * register its machine, which must show up online. Then its process group is stopped.
 */
import { spawn } from 'node:child_process';
import type { DocsWorld } from './docs-service.ts';
import { type Example, placeOf } from './markdown-examples.ts';
import type { ShellSession } from './shell-session.ts';

export async function runAgentExample(world: DocsWorld, session: ShellSession, example: Example, env: Record<string, string>, cwd: string): Promise<void> {
  const child = spawn('bash', ['-c', `${session.prologue()}\n${session.rewrite(example.code)}`], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let gone = false;
  void exited.then(() => (gone = true));
  try {
    const deadline = Date.now() + 60_000;
    // The agent says what it can run, then registers; its machine id is in that log line (JSON or pretty).
    const registered = () => output.split('\n').find((line) => line.includes('agent registered'))?.match(/machine_id[=:"]+([0-9a-f-]{36})/)?.[1];
    while (!registered()) {
      if (gone) throw new Error(`${placeOf(example)}: the agent exited before it registered:\n${output}`);
      if (Date.now() > deadline) throw new Error(`${placeOf(example)}: the agent did not register within 60 s:\n${output}`);
      await Bun.sleep(100);
    }
    if (!output.includes('load tools on this machine:')) throw new Error(`${placeOf(example)}: the agent did not list its load tools:\n${output}`);
    const machineId = registered()!;
    const machines = (await (await world.api('/api/v1/machines')).json()) as { id: string; status: string }[];
    const status = machines.find((machine) => machine.id === machineId)?.status;
    if (status !== 'online') throw new Error(`${placeOf(example)}: its machine ${machineId} is ${status ?? 'not listed'}`);
  } finally {
    // npm, the shell and the agent are one process group: stop them together.
    if (!gone) process.kill(-child.pid!, 'SIGTERM');
    const timer = setTimeout(() => !gone && process.kill(-child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}
