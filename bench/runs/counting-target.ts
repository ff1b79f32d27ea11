/** Starts bench/runs/http-target.ts in its own process: a loopback HTTP target that counts the requests it answers. */
import { resolve } from 'node:path';

export interface CountingTarget {
  url: string;
  pid: number;
  reset(): Promise<void>;
  count(): Promise<{ requests: number; firstAt: number; lastAt: number }>;
  stop(): Promise<void>;
}

export async function startCountingTarget(): Promise<CountingTarget> {
  const proc = Bun.spawn([resolve(process.execPath), resolve(import.meta.dir, 'http-target.ts')], { stdout: 'pipe', stderr: 'inherit' });
  const reader = proc.stdout.getReader();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the target exited before printing its port');
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const url = `http://127.0.0.1:${Number(text.trim())}`;
  return {
    url,
    pid: proc.pid,
    reset: async () => void (await (await fetch(`${url}/__reset`)).text()),
    count: async () => (await (await fetch(`${url}/__count`)).json()) as { requests: number; firstAt: number; lastAt: number },
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
    },
  };
}
