/** A short description of the machine a benchmark ran on: cores, CPU model, memory, kernel, Bun and wrk versions. */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { findPostgresBinDir } from '../tests/helpers/postgres-server.ts';

function firstLine(command: string, args: string[]): string | null {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.error) return null;
  return `${result.stdout}${result.stderr}`.split('\n')[0]?.trim() || null;
}

export function machineDescription() {
  let cpuModel = 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // not Linux
  }
  const cores = availableParallelism();
  const memoryGiB = (totalmem() / 1024 ** 3).toFixed(1);
  const wrk = firstLine('wrk', ['-v'])?.replace(/\s*Copyright.*$/, '') ?? 'not installed';
  const pgBin = findPostgresBinDir();
  const postgres = process.env.TEST_POSTGRES_URL ? 'TEST_POSTGRES_URL' : pgBin ? (firstLine(join(pgBin, 'postgres'), ['--version']) ?? 'unknown') : 'none';
  const facts = { cores, cpuModel, memoryGiB, kernel: release(), bun: Bun.version, wrk, postgres };
  const markdown = [
    `- Machine: ${cores} cores (\`nproc\`), CPU \`${cpuModel}\` (/proc/cpuinfo), ${memoryGiB} GiB RAM, Linux ${facts.kernel}`,
    `- Bun ${facts.bun} (server and benchmark driver), ${wrk}, PostgreSQL: ${postgres}`,
  ].join('\n');
  return { ...facts, markdown };
}
