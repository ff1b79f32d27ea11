/**
 * The log-path benchmark's tool: prints `--lines` lines, each `L <seq> <emit epoch ms> <padding>` of `--bytes` bytes,
 * as fast as the pipe takes them (`--rate 0`) or paced at `--rate` lines/s. Blocking writes: when the reader falls
 * behind, the generator waits, so queueing shows up as latency instead of being hidden in this process.
 *
 *   bun bench/runs/line-generator.ts --lines 200000 [--rate 0] [--bytes 100] [--go FILE] [--stats FILE]
 *
 * `--go FILE` waits for FILE to exist before the first line (subscribers connect first), printing `waiting` lines
 * meanwhile; `--stats FILE` gets a JSON
 * line with what was written, how long it took and the CPU this process used.
 */
import { existsSync, writeFileSync, writeSync } from 'node:fs';

const args = Bun.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? (args[index + 1] ?? fallback) : fallback;
};
const lines = Number(option('lines', '100000'));
const rate = Number(option('rate', '0'));
const bytes = Math.max(40, Number(option('bytes', '100')));
const goFile = option('go', '');
const statsFile = option('stats', '');

// While waiting, a line every 50 ms: subscribers know they are connected when they see one (the service sends an SSE
// response's headers only with its first event).
if (goFile) {
  let lastWait = 0;
  while (!existsSync(goFile)) {
    if (performance.now() - lastWait >= 50) {
      writeSync(1, 'waiting for subscribers\n');
      lastWait = performance.now();
    }
    await Bun.sleep(2);
  }
}

const now = () => performance.timeOrigin + performance.now();
const padding = 'x'.repeat(bytes);
function line(seq: number): string {
  const head = `L ${seq} ${now().toFixed(3)} `;
  return `${head}${padding.slice(0, Math.max(0, bytes - head.length - 1))}\n`;
}

const started = now();
const cpuBefore = process.cpuUsage();
let seq = 0;
if (rate <= 0) {
  // About 64 KiB per write: the size of a Linux pipe buffer.
  const perWrite = Math.max(1, Math.floor(65_536 / bytes));
  while (seq < lines) {
    let chunk = '';
    const end = Math.min(lines, seq + perWrite);
    while (seq < end) chunk += line(++seq);
    writeSync(1, chunk);
  }
} else {
  // Every tick, write the lines that are due by now: timestamps stay within a tick of the schedule.
  const tickMs = 2;
  while (seq < lines) {
    const due = Math.min(lines, Math.floor(((now() - started) / 1000) * rate) + 1);
    if (due > seq) {
      let chunk = '';
      while (seq < due) chunk += line(++seq);
      writeSync(1, chunk);
    }
    await Bun.sleep(tickMs);
  }
}
const ended = now();
const cpu = process.cpuUsage(cpuBefore);
if (statsFile) {
  writeFileSync(statsFile, `${JSON.stringify({ lines: seq, ms: ended - started, cpuMs: (cpu.user + cpu.system) / 1000, firstAt: started, lastAt: ended })}\n`);
}
