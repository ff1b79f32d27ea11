/**
 * The AI tool-call budget over months: a seeded random walk of calls (single and in bursts), reads of GET /usage and
 * clock moves (minutes to weeks, across month and year ends) for two workspaces on a budget of 7, checked at every
 * step against a model that counts per workspace and UTC month. The service's clock is the test's (boot option
 * `usage.now`). On PGlite and on a PostgreSQL server. BUDGET_SEED=<n> replays one seed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { limitsOf } from '../../core/domain/plans.ts';
import { sqlOf } from '../../core/services/sql.ts';
import { postgresOrSkip, type PostgresServer } from '../helpers/postgres-server.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const budget = 7;
const fixedSeed = 20261130;
const seeds = process.env.BUDGET_SEED ? [Number(process.env.BUDGET_SEED)] : process.env.CI ? [fixedSeed] : [fixedSeed, Math.floor(Math.random() * 2 ** 31)];
const steps = 160;
const minute = 60_000;
const day = 86_400_000;

/** The model's period: the UTC month, written out independently of the service's code. */
const monthOf = (time: number) => new Date(time).toISOString().slice(0, 7);
/** Seconds until the first of the next UTC month, as Retry-After must say. */
function secondsToNextMonth(time: number): number {
  const at = new Date(time);
  return Math.ceil((Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) - time) / 1000);
}

function suite(kind: 'pglite' | 'postgresql') {
  let postgres: PostgresServer | null = null;
  let ts: TestService | null = null;
  // An hour before the end of November 2026: the walk crosses into December, and on into the next year.
  let clock = Date.parse('2026-11-30T23:00:00Z');

  beforeAll(async () => {
    if (kind === 'postgresql') {
      postgres = await postgresOrSkip();
      if (!postgres) return;
    }
    ts = await startTestService({
      database: postgres?.url ?? 'memory',
      boot: { usage: { now: () => new Date(clock), aiToolCallBudget: (plan) => (plan === 'starter' ? budget : limitsOf(plan).aiToolCallsPerMonth) } },
    });
  }, 60_000);
  afterAll(async () => {
    await ts?.stop();
    await postgres?.stop();
  });

  for (const seed of seeds) {
    test(`seed ${seed}: calls are granted while the month's count is under 7, and the count starts over each month`, async () => {
      if (!ts) return;
      const service = ts;
      const random = seededRandom(seed);
      const owners: string[] = [];
      const workspaceIds: string[] = [];
      for (const name of ['a', 'b']) {
        const token = await service.createUser(`months-${kind}-${seed}-${name}`);
        const patched = await service.request('/api/v1/workspace', { method: 'PATCH', token, json: { plan: 'starter' } });
        expect(patched.status).toBe(200);
        owners.push(token);
        workspaceIds.push(((await patched.json()) as { id: string }).id);
      }
      /** The model: calls counted per workspace and month. */
      const counted = owners.map(() => new Map<string, number>());
      const months = new Set<string>();
      const log: string[] = [];
      const where = () => `seed ${seed} (replay: BUDGET_SEED=${seed}), after: ${log.slice(-6).join('; ')}`;

      const call = async (owner: number) => {
        const answer = await service.request('/api/v1/usage/ai-tool-calls', { method: 'POST', token: owners[owner] });
        return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: (await answer.json()) as Record<string, unknown> };
      };

      for (let step = 0; step < steps; step++) {
        const action = random.weighted({ call: 6, burst: 2, read: 2, advance: 3 });
        const owner = random.int(0, owners.length - 1);
        const period = monthOf(clock);
        months.add(period);
        const before = counted[owner]!.get(period) ?? 0;
        if (action === 'advance') {
          // Mostly minutes or hours (several calls in one month), sometimes days or weeks (into the next month).
          const by = random.pick([random.int(1, 90) * minute, random.int(1, 30) * 60 * minute, random.int(1, 20) * day]);
          clock += by;
          log.push(`advance ${Math.round(by / minute)} min to ${new Date(clock).toISOString()}`);
        } else if (action === 'read') {
          const report = (await (await service.request('/api/v1/usage', { token: owners[owner] })).json()) as { period: string; ai_tool_calls: unknown };
          expect({ period: report.period, ai_tool_calls: report.ai_tool_calls }, where()).toEqual({ period, ai_tool_calls: { used: before, limit: budget } });
          log.push(`read ${owner}: ${before}`);
        } else {
          const n = action === 'call' ? 1 : random.int(2, 6);
          const answers = await Promise.all(Array.from({ length: n }, () => call(owner)));
          const granted = Math.min(n, budget - before);
          counted[owner]!.set(period, before + granted);
          log.push(`${n} call(s) by ${owner} in ${period}: ${before} -> ${before + granted}`);
          const ok = answers.filter((answer) => answer.status === 200);
          expect(ok.length, where()).toBe(granted);
          expect(ok.map((answer) => answer.body.used).sort((x, y) => Number(x) - Number(y)), where()).toEqual(Array.from({ length: granted }, (_, i) => before + i + 1));
          for (const answer of ok) expect(answer.body, where()).toEqual({ period, used: answer.body.used, limit: budget, remaining: budget - Number(answer.body.used) });
          for (const answer of answers.filter((each) => each.status !== 200)) {
            expect(answer.status, where()).toBe(429);
            expect(answer.body.error, where()).toBe('ai_budget_exhausted');
            expect(answer.body.message, where()).toContain(`budget for ${period} (7 calls`);
            expect(answer.retryAfter, where()).toBe(String(secondsToNextMonth(clock)));
          }
        }
      }
      // The walk really went into another month and hit the budget: otherwise it proved little. (The fixed seed walks
      // from 2026-11 to 2027-03.)
      expect(months.size, where()).toBeGreaterThanOrEqual(2);
      if (seed === fixedSeed) expect([...months], where()).toEqual(['2026-11', '2026-12', '2027-01', '2027-02', '2027-03']);
      expect([...counted[0]!.values(), ...counted[1]!.values()].some((used) => used === budget), where()).toBe(true);
      // The months gone by keep their counts apart: each workspace's row of each month holds what the model counted.
      const stored = await sqlOf(service.service.database).all<{ workspace_id: string; period: string; ai_tool_calls: number }>(
        `select workspace_id, period, ai_tool_calls from workspace_usage where workspace_id in (?, ?) and ai_tool_calls > 0`,
        workspaceIds,
      );
      const expected = counted.flatMap((map, owner) => [...map].filter(([, used]) => used > 0).map(([period, used]) => `${workspaceIds[owner]} ${period} ${used}`));
      expect(stored.map((row) => `${row.workspace_id} ${row.period} ${Number(row.ai_tool_calls)}`).sort(), where()).toEqual(expected.sort());
    }, 120_000);
  }
}

describe('on PGlite', () => suite('pglite'));
describe('on PostgreSQL', () => suite('postgresql'));
