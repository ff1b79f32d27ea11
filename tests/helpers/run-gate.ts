/**
 * A gate a run waits at until the test opens it: the run lasts as long as the test needs, however slow the machine,
 * instead of a `sleep N` that a loaded machine can outlast. The gate is a file outside /tmp (a sandboxed tool gets a
 * private /tmp), in a directory the tool's unprivileged user may read.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface RunGate {
  /** A shell line that returns once the gate is open (it polls the file every 50 ms). */
  wait: string;
  open(): Promise<void>;
  /** Removes the gate's directory (a run still waiting goes on waiting: stop the service or agent first). */
  remove(): Promise<void>;
}

export async function createRunGate(): Promise<RunGate> {
  const dir = await mkdtemp('/var/tmp/loadplane-run-gate-');
  await chmod(dir, 0o755);
  const file = join(dir, 'open');
  return {
    wait: `while [ ! -e '${file}' ]; do sleep 0.05; done`,
    open: () => writeFile(file, ''),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
