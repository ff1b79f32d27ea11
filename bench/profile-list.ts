/**
 * Where the time of one endpoint goes: runs the service under Bun's sampling CPU profiler (via BUN_OPTIONS) while wrk
 * loads that endpoint, then prints the hottest functions and files. A diagnostic, not a benchmark: the profiler itself
 * slows the server, so read the shares, not the throughput.
 *
 *   ./node_modules/.bin/bun bench/profile-list.ts [pglite|postgres] [--path /api/v1/tests] [--duration 10s]
 *                                                 [--connections 64] [--top 30] [--keep DIR]
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { startFilledService } from './filled-service.ts';
import { runWrk } from './wrk.ts';

function parseArgs(argv: string[]) {
  const options = { mode: 'pglite' as 'pglite' | 'postgres', path: '/api/v1/tests', duration: '10s', connections: 64, top: 30, keep: null as string | null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => argv[++i] ?? '';
    if (arg === 'pglite' || arg === 'postgres') options.mode = arg;
    else if (arg === '--path') options.path = value();
    else if (arg === '--duration') options.duration = value();
    else if (arg === '--connections') options.connections = Number(value());
    else if (arg === '--top') options.top = Number(value());
    else if (arg === '--keep') options.keep = value();
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

/** The first `rows` rows of the markdown table under `heading` in Bun's --cpu-prof-md output. */
function section(markdown: string, heading: string, rows: number): string {
  const start = markdown.indexOf(`## ${heading}`);
  if (start < 0) return `(no "${heading}" section)`;
  const lines = markdown.slice(start).split('\n').slice(1);
  const table = lines.filter((line) => line.startsWith('|'));
  return [`### ${heading}`, ...table.slice(0, rows + 2)].join('\n');
}

async function main() {
  const options = parseArgs(Bun.argv.slice(2));
  const dataDir = await mkdtemp(join(tmpdir(), 'loadplane-profile-'));
  const profileDir = options.keep ?? (await mkdtemp(join(tmpdir(), 'loadplane-cpuprof-')));
  const postgres = options.mode === 'postgres' ? await startPostgresServer() : null;
  try {
    if (options.mode === 'postgres' && !postgres) {
      console.log(`PostgreSQL skipped: ${POSTGRES_SKIP_MESSAGE}`);
      return;
    }
    const { service, token } = await startFilledService({
      DATA_DIR: dataDir,
      BUN_OPTIONS: `--cpu-prof --cpu-prof-md --cpu-prof-dir=${profileDir}`,
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    });
    let result;
    try {
      const headers = options.path.startsWith('/api/') ? { authorization: `Bearer ${await token()}` } : undefined;
      console.error(`profiling ${options.mode} ${options.path} for ${options.duration}`);
      result = await runWrk({ url: `${service.url}${options.path}`, threads: 1, connections: options.connections, duration: options.duration, headers });
    } finally {
      // The profile is written when the process exits.
      await service.stop();
    }
    const file = (await readdir(profileDir)).filter((name) => name.endsWith('.md')).sort().at(-1);
    if (!file) throw new Error(`no profile written to ${profileDir}`);
    const markdown = await readFile(join(profileDir, file), 'utf8');
    console.log(`## CPU profile: ${options.mode} \`GET ${options.path}\`\n`);
    console.log(`${Math.round(result.requestsPerSecond)} req/s under the profiler (\`${result.command.replace(/:\d+\//, ':<port>/')}\`); whole-process profile including boot and setup.\n`);
    console.log(`${section(markdown, 'Hot Functions (Self Time)', options.top)}\n`);
    console.log(`${section(markdown, 'Files', 15)}\n`);
    if (options.keep) console.error(`profile kept in ${profileDir}`);
  } finally {
    await postgres?.stop();
    await rm(dataDir, { recursive: true, force: true });
    if (!options.keep) await rm(profileDir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  main().catch((error) => {
    console.error(`profile FAILED: ${(error as Error)?.stack ?? error}`);
    process.exit(1);
  });
}
