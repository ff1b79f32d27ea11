/**
 * Where one `GET /api/v1/tests` spends its time: the service booted in-process (no sockets), 100 tests, and each layer
 * of the request timed on its own, one call at a time. Complements auth-list.ts (throughput over real sockets).
 *
 *   ./node_modules/.bin/bun bench/list-breakdown.ts [pglite] [postgres] [--iterations 700]
 */
import type { SqlEntityManager } from '@mikro-orm/sql';
import { tokenVerifierCapability } from '../core/capabilities/token-verifier.ts';
import { TestDefinition } from '../core/domain/entities/test-definition.ts';
import { toTestView } from '../core/http/schemas/test-definition.ts';
import { POSTGRES_SKIP_MESSAGE, startPostgresServer } from '../tests/helpers/postgres-server.ts';
import { adminPassword, startTestService, type TestService } from '../tests/helpers/test-service.ts';
import { waitForQuietMachine } from './cpu.ts';
import { testCount } from './filled-service.ts';
import { k6Script } from './k6-script.ts';

interface Step {
  name: string;
  run: () => Promise<unknown>;
}

const rounds = 7;

/**
 * Milliseconds per call of every step. The steps are interleaved: each of 7 rounds runs a batch of every step in turn
 * (after waiting for a quiet machine), so outside load hits all steps alike; a step's figure is its median batch mean.
 */
async function timeAll(steps: Step[], iterations: number): Promise<Array<[string, number]>> {
  for (const step of steps) for (let i = 0; i < Math.max(10, iterations / 10); i++) await step.run();
  const batch = Math.max(1, Math.round(iterations / rounds));
  const means = steps.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    await waitForQuietMachine({ maxSeconds: 60 });
    for (const [index, step] of steps.entries()) {
      const started = performance.now();
      for (let i = 0; i < batch; i++) await step.run();
      means[index]!.push((performance.now() - started) / batch);
    }
  }
  return steps.map((step, index) => [step.name, means[index]!.sort((x, y) => x - y)[Math.floor(rounds / 2)]!]);
}

async function ok(response: Response, status = 200): Promise<string> {
  const body = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${body.slice(0, 300)}`);
  return body;
}

async function breakdown(ts: TestService, iterations: number) {
  const token = await ts.tokenFor('admin', adminPassword);
  for (let i = 0; i < testCount; i++) {
    await ok(await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: `k6 ${i}`, tool: 'k6', script: k6Script(i), status: 'active' } }), 201);
  }
  const workspaceId = ts.service.bootstrapWorkspaceId;
  const verifier = ts.service.kernel.get(tokenVerifierCapability);
  const filter = { workspaceId, deletedAt: null };
  const options = { orderBy: { createdAt: 'desc', id: 'desc' }, limit: testCount + 1 } as const;
  const rows = await ts.service.database.fork().find(TestDefinition, filter, options);
  if (rows.length !== testCount) throw new Error(`expected ${testCount} tests in the bootstrap workspace, found ${rows.length}`);
  const where = 'from tests where workspace_id = ? and deleted_at is null order by created_at desc, id desc limit ?';
  const raw = (columns: string, limit: number) => () =>
    (ts.service.database.fork() as SqlEntityManager).execute(`select ${columns} ${where}`, [workspaceId, limit]);

  const steps: Step[] = [
    { name: 'app.handle `GET /healthz`', run: async () => ok(await ts.request('/healthz')) },
    { name: 'token verification (identity-oidc, warm cache)', run: () => verifier.verify(token) },
    { name: 'app.handle `GET /api/v1/auth/me` (auth + caller, no database)', run: async () => ok(await ts.request('/api/v1/auth/me', { token })) },
    { name: 'app.handle `GET /api/v1/tests?limit=1` (auth + 2-row query)', run: async () => ok(await ts.request('/api/v1/tests?limit=1', { token })) },
    { name: 'app.handle `GET /api/v1/tests` (whole request)', run: async () => ok(await ts.request('/api/v1/tests', { token })) },
    { name: 'raw SQL `select 1` (driver round trip)', run: () => (ts.service.database.fork() as SqlEntityManager).execute('select 1') },
    { name: 'raw SQL, 2 rows (what `?limit=1` fetches)', run: raw('*', 2) },
    { name: 'ORM `find`, 2 rows', run: () => ts.service.database.fork().find(TestDefinition, filter, { ...options, limit: 2 }) },
    { name: 'raw SQL, 101 rows (driver only: round trip + row decode)', run: raw('*', testCount + 1) },
    { name: 'raw SQL, 101 rows without `script` (a summary list)', run: raw('id, name, tool, status, created_at, updated_at', testCount + 1) },
    { name: 'ORM `find`, 101 rows (SQL + hydration into entities)', run: () => ts.service.database.fork().find(TestDefinition, filter, options) },
    { name: '`toTestView` x100 + `JSON.stringify` (200 KB)', run: async () => JSON.stringify(rows.map(toTestView)) },
  ];
  return timeAll(steps, iterations);
}

async function main() {
  const argv = Bun.argv.slice(2);
  let iterations = 700;
  const modes = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--iterations') iterations = Number(argv[++i]);
    else if (argv[i] === 'pglite' || argv[i] === 'postgres') modes.add(argv[i]!);
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (modes.size === 0) modes.add('pglite').add('postgres');

  console.log(`In-process breakdown: ${iterations} sequential calls per step, in ${rounds} interleaved rounds; median round (concurrency 1, no sockets):\n`);
  console.log('| mode | step | ms per call | calls/s |');
  console.log('|---|---|---:|---:|');
  for (const mode of ['pglite', 'postgres']) {
    if (!modes.has(mode)) continue;
    const postgres = mode === 'postgres' ? await startPostgresServer() : null;
    if (mode === 'postgres' && !postgres) {
      console.log(`| PostgreSQL | skipped: ${POSTGRES_SKIP_MESSAGE} | | |`);
      continue;
    }
    // Like the real service: PGlite on disk under DATA_DIR, or the PostgreSQL database.
    const ts = await startTestService({ database: postgres ? postgres.url : 'disk' });
    try {
      for (const [name, ms] of await breakdown(ts, iterations)) {
        console.log(`| ${mode === 'pglite' ? 'PGlite' : 'PostgreSQL'} | ${name} | ${ms.toFixed(3)} | ${Math.round(1000 / ms).toLocaleString('en-US')} |`);
      }
    } finally {
      await ts.stop();
      await postgres?.stop();
    }
  }
}

if (import.meta.main) {
  main().catch((error) => {
    console.error(`list-breakdown FAILED: ${(error as Error)?.stack ?? error}`);
    process.exit(1);
  });
}
